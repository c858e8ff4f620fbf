/**
 * Which deployment a role read back belongs to. Getting the current user answers the credentials' own user
 * and role, and names no deployment (docs/api-behaviour.md, "Deployment reach"). So before a role read
 * back is recorded as a user's role in deployment D, the provider asks for a read under D itself: list
 * D's notification rules, one at most (read-only). Only its 200 confirms D as the credentials' own, and
 * only the status is read: a rule the platform answers with a field missing proves the reach as well.
 *
 * Any other answer confirms nothing, and says nothing certain either: the spec does not say which role
 * each operation needs, so a 403 or a 404 may mean another deployment or a missing permission. An import
 * is refused then, naming both causes; a refresh keeps the state as it is, with a warning. A confirmation
 * is kept per client and deployment for the process; an answer that confirms nothing is not (the next
 * reader asks again). A failing read (the network, a timeout, a 401, a 429, a 5xx) is thrown as the
 * client's error, as every other read of a refresh does.
 */
import { escapedText, quotedText } from "../../api/messageText";
import { CodeSecApiError, type CodeSecClient } from "../../client";
import type { ResolvedConnection } from "../connection";
import type { ProviderContext } from "../providerContext";
import { CodeSecResourceError } from "../errors";
import { withRotationAdvice } from "./staleCredentials";

/** Deployment ids listing notification rules can carry: it sends the id as a JSON integer. */
const CARRIED_BY_LIST_NOTIFICATION_RULES = /^[0-9]{1,15}$/;

/** What the platform said of a deployment: confirmed as the credentials', or its answer otherwise. */
type DeploymentAnswer = { readonly confirmed: true } | { readonly confirmed: false; readonly answer: string };

const confirmations = new WeakMap<CodeSecClient, Map<string, Promise<DeploymentAnswer>>>();

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

/** Why a deployment is not confirmed, and what to do, on import and on refresh. */
interface Unconfirmed {
  readonly why: string;
  /** From the id an import of the same role from another deployment takes. */
  readonly onImport: (importIdIn: (deploymentId: string) => string) => string;
  readonly onRefresh: string;
}

/**
 * True when the platform confirms `read`'s deployment as the credentials' own. Otherwise an import throws
 * a CodeSecResourceError, and a refresh logs a warning and returns false: the caller keeps the state.
 */
export async function credentialsDeploymentConfirmed(
  ctx: Pick<ProviderContext, "log">,
  client: CodeSecClient,
  connection: ResolvedConnection,
  read: RoleReadBack,
): Promise<boolean> {
  const unconfirmed = await unconfirmedReason(client, connection, read);
  if (unconfirmed === undefined) return true;
  if (read.step === "import") {
    throw new CodeSecResourceError(
      `${read.type} ${read.id} cannot be looked up by id or imported: ${unconfirmed.why}. ` +
        unconfirmed.onImport(read.importIdIn),
    );
  }
  ctx.log(
    "warning",
    `${read.type} ${read.id}: the caller's role was not checked, and the state was kept as it was: ` +
      `${unconfirmed.why}. ${unconfirmed.onRefresh}`,
  );
  return false;
}

async function unconfirmedReason(
  client: CodeSecClient,
  connection: ResolvedConnection,
  read: RoleReadBack,
): Promise<Unconfirmed | undefined> {
  const { deploymentId } = read;
  const stateDelete =
    "remove the resource from the state with `pulumi state delete <urn>` (the role on the platform stays as it is)";
  const canonical = deploymentId.replace(/^0+(?=[0-9])/, "");
  if (canonical !== deploymentId) {
    // The platform writes its ids without leading zeros: confirming "04242" as 4242 would record a
    // deployment id the platform never wrote, and an id that round-trips to no resource it knows.
    return {
      why:
        `its deployment id ${deploymentId} is not written as the platform writes it (no leading zeros), so ` +
        "the platform cannot confirm it as the credentials' own",
      onImport: (importIdIn) => `Import it as ${importIdIn(canonical)}.`,
      onRefresh: `Declare the resource with deploymentId "${canonical}" instead, and ${stateDelete}.`,
    };
  }
  if (!CARRIED_BY_LIST_NOTIFICATION_RULES.test(deploymentId)) {
    return {
      why:
        `deployment ${deploymentId} has more than 15 digits, and listing notification rules, the read that ` +
        "confirms a deployment, carries the id as a JSON number of at most 15 digits, so the platform " +
        "cannot confirm it as the credentials' own",
      onImport: () =>
        "Declare the role in the program instead: creating the resource sets it, whatever it was.",
      onRefresh: `The declared role is kept; if deployment ${deploymentId} is not the credentials', ${stateDelete}.`,
    };
  }
  const said = await withRotationAdvice(() => answerFor(client, deploymentId), connection);
  if (said.confirmed) return undefined;
  const permission =
    `the credentials lack permission to list deployment ${deploymentId}'s notification rules, which is ` +
    "how the provider confirms a deployment";
  return {
    why:
      `the platform did not confirm deployment ${deploymentId} as the credentials' own (${said.answer}); ` +
      "getting the current user, which reads the role back, names no deployment",
    onImport: (importIdIn) =>
      "Either the id names another deployment than the credentials': import the role with the credentials' " +
      `own deployment in the id (${importIdIn("<deploymentId>")}). Or ` +
      `${permission}: give them that permission on the platform, or import with credentials that have it.`,
    onRefresh:
      "Either the resource names another deployment than the credentials': refresh it with credentials of " +
      `deployment ${deploymentId}, or, if it was recorded in that deployment by mistake, ${stateDelete}. ` +
      `Or ${permission}: give them that permission to have the role checked.`,
  };
}

/** A status that confirms nothing, as opposed to a read that failed (the network, 401, 408, 429, 5xx). */
function isUnconfirmingStatus(error: unknown): error is CodeSecApiError {
  return (
    error instanceof CodeSecApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 408, 429].includes(error.status)
  );
}

function answerFor(client: CodeSecClient, deploymentId: string): Promise<DeploymentAnswer> {
  let byDeployment = confirmations.get(client);
  if (byDeployment === undefined) {
    byDeployment = new Map();
    confirmations.set(client, byDeployment);
  }
  const kept = byDeployment.get(deploymentId);
  if (kept !== undefined) return kept;
  const listed = "listing its notification rules answered";
  const answer = client.listNotificationRulesStatus({ deploymentId, limit: 1 }).then(
    (status): DeploymentAnswer =>
      status === 200 ? { confirmed: true } : { confirmed: false, answer: `${listed} ${status}` },
    (error: unknown): DeploymentAnswer => {
      if (!isUnconfirmingStatus(error)) throw error;
      const code = error.code === undefined ? "" : ` ${escapedText(error.code)}`;
      const message = error.platformMessage === undefined ? "" : `: ${quotedText(error.platformMessage)}`;
      return { confirmed: false, answer: `${listed} ${error.status}${code}${message}` };
    },
  );
  byDeployment.set(deploymentId, answer);
  // Only a confirmation is kept: the next reader asks again after any other answer or a failure.
  const forget = () => {
    if (byDeployment.get(deploymentId) === answer) byDeployment.delete(deploymentId);
  };
  void answer.then((said) => {
    if (!said.confirmed) forget();
  }, forget);
  return answer;
}
