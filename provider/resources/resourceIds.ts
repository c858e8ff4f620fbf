/** Resource ids are `<deploymentId>/<key>`; both halves are needed to read or delete by id alone (import). */
import { quotedText } from "../../api/messageText";
import { firstSchemaIssue } from "../../api/schemaIssues";
import { OpaqueId } from "../../api/schemas/common";
import { CodeSecResourceError } from "../errors";

export function formatResourceId(deploymentId: string, key: string): string {
  return `${deploymentId}/${key}`;
}

/**
 * Splits an id made by `formatResourceId`; `what` names the second half in the error. An id given to an
 * import may be any text: the key must be an id the platform's paths can carry (as every kind's key is),
 * and an id that is not is refused before any call, quoted with its control characters escaped.
 */
export function parseResourceId(
  id: string,
  resourceType: string,
  what: string,
): { deploymentId: string; key: string } {
  const match = /^([0-9]+)\/([^/]+)$/.exec(id ?? "");
  if (!match) {
    throw new CodeSecResourceError(
      `${resourceType}: id ${quotedText(String(id))} is not of the form <deploymentId>/<${what}>, for ` +
        `example "1001/${what}"`,
    );
  }
  const issue = firstSchemaIssue(OpaqueId, match[2]);
  if (issue !== undefined) {
    throw new CodeSecResourceError(
      `${resourceType}: id ${quotedText(id)} is not of the form <deploymentId>/<${what}>: its ${what} ` +
        `${issue.rule ?? `must be ${issue.expected}`}`,
    );
  }
  return { deploymentId: match[1], key: match[2] };
}
