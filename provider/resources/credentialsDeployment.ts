/**
 * Which deployment a role read back belongs to. Operation 8 answers the credentials' own user and role,
 * and names no deployment: the platform keeps every credential to one deployment and answers the role
 * there (docs/api-behaviour.md, "Deployment reach" and operation 8). So before a role read back is
 * recorded as a user's role in deployment D, the platform must confirm that D is the credentials'
 * deployment: a read under D itself (operation 10, asked for one notification rule at most: read-only,
 * open to every role) answers 200 only there, and 403 or 404 anywhere else. Asked once per client and
 * deployment per process; a failure other than that refusal is not kept (the next reader asks again).
 */
import { CodeSecApiError, type CodeSecClient } from "../../sdk";
import type { ResolvedConnection } from "../connection";
import { CodeSecResourceError } from "./resourceError";
import { withRotationAdvice } from "./staleCredentials";

/** Deployment ids operation 10 can carry: it sends the id as a JSON integer. */
const CARRIED_BY_OPERATION_10 = /^[0-9]{1,15}$/;

/** What the platform said of a deployment: confirmed as the credentials', or refused with its answer. */
type DeploymentAnswer =
  { readonly confirmed: true } | { readonly confirmed: false; readonly refusal: string };

const answers = new WeakMap<CodeSecClient, Map<string, Promise<DeploymentAnswer>>>();

/** The resource whose role was read back: a refresh of its state, or an import (no state yet). */
export type RoleReadBack = {
  /** `codesec:UserRole` */
  readonly type: string;
  /** The resource's id. */
  readonly id: string;
  readonly deploymentId: string;
} & (
  | { readonly step: "refresh" }
  | {
      readonly step: "import";
      /** The id an import of the same role from another deployment takes. */
      readonly importIdIn: (deploymentId: string) => string;
    }
);

/**
 * Returns when the platform confirms that the role read back with these credentials is `read`'s
 * deployment's; otherwise throws a CodeSecResourceError that names the deployment and quotes the
 * platform's answer, which names the credentials' own. A failure of the read itself (the network, a
 * 5xx, a 401) is thrown as the client's error, with the token-rotation advice where it applies.
 */
export async function requireCredentialsDeployment(
  client: CodeSecClient,
  connection: ResolvedConnection,
  read: RoleReadBack,
): Promise<void> {
  const { deploymentId } = read;
  const subject =
    read.step === "import"
      ? `${read.type} ${read.id} cannot be looked up by id or imported`
      : `${read.type} ${read.id} cannot be refreshed`;
  const kept = read.step === "refresh" ? "; the state was left as it was" : "";
  const canonical = deploymentId.replace(/^0+(?=[0-9])/, "");
  if (canonical !== deploymentId) {
    // The platform writes its ids without leading zeros: confirming "04242" as 4242 would record a
    // deployment id the platform never wrote, and an id that round-trips to no resource it knows.
    throw new CodeSecResourceError(
      `${subject}: its deployment id ${deploymentId} is not written as the platform writes it (no leading ` +
        `zeros), so the platform cannot confirm it as the credentials' own${kept}. ` +
        (read.step === "import"
          ? `Import it as ${read.importIdIn(canonical)}.`
          : `Declare the resource with deploymentId "${canonical}".`),
    );
  }
  const answer = CARRIED_BY_OPERATION_10.test(deploymentId)
    ? await withRotationAdvice(() => answerFor(client, deploymentId), connection)
    : ({ confirmed: false, refusal: "the read that confirms it carries at most 15 digits" } as const);
  if (answer.confirmed) return;
  throw new CodeSecResourceError(
    `${subject}: the platform reads back the caller's role only in the credentials' own deployment, and ` +
      `it did not confirm deployment ${deploymentId} as theirs (${answer.refusal})${kept}. ` +
      (read.step === "import"
        ? `Import the role with the credentials' own deployment in the id (${read.importIdIn("<deploymentId>")}), ` +
          `or with credentials of deployment ${deploymentId}.`
        : `Refresh it with credentials of deployment ${deploymentId}.`),
  );
}

function answerFor(client: CodeSecClient, deploymentId: string): Promise<DeploymentAnswer> {
  let byDeployment = answers.get(client);
  if (byDeployment === undefined) {
    byDeployment = new Map();
    answers.set(client, byDeployment);
  }
  const cached = byDeployment.get(deploymentId);
  if (cached !== undefined) return cached;
  const answer = client.listNotificationRules({ deploymentId, limit: 1 }).then(
    (): DeploymentAnswer => ({ confirmed: true }),
    (error: unknown): DeploymentAnswer => {
      if (error instanceof CodeSecApiError && (error.status === 403 || error.status === 404)) {
        const code = error.code === undefined ? "" : ` ${error.code}`;
        const said = error.platformMessage === undefined ? "" : `: ${error.platformMessage}`;
        return { confirmed: false, refusal: `a read there answered ${error.status}${code}${said}` };
      }
      if (byDeployment.get(deploymentId) === answer) byDeployment.delete(deploymentId);
      throw error;
    },
  );
  byDeployment.set(deploymentId, answer);
  return answer;
}
