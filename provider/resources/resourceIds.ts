/** Resource ids are `<deploymentId>/<key>`; both halves are needed to read or delete by id alone (import). */
import { CodeSecResourceError } from "./resourceError";

export function formatResourceId(deploymentId: string, key: string): string {
  return `${deploymentId}/${key}`;
}

/** Splits an id made by `formatResourceId`; `what` names the second half in the error. */
export function parseResourceId(
  id: string,
  resourceType: string,
  what: string,
): { deploymentId: string; key: string } {
  const match = /^([0-9]+)\/([^/]+)$/.exec(id ?? "");
  if (!match) {
    throw new CodeSecResourceError(
      `${resourceType}: id "${id}" is not of the form <deploymentId>/<${what}>, for example "1001/${what}"`,
    );
  }
  return { deploymentId: match[1], key: match[2] };
}
