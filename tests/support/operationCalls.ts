/**
 * One call of each of the client's ten operations with valid arguments, for tests that put every
 * operation through the same fault (a header, an echo, a bad argument). The table is keyed by the
 * operation catalogue, so a new operation fails to compile here until it has a call.
 */
import type { CodeSecClient, OperationKey } from "../../client";
import { SAMPLES } from "./fakeServer";

/** The one-time code `completeScmAppRequest` sends (a secret: redacted from anything echoed back). */
export const SCM_APP_CODE = "otc-1001-b-Kx4Vm1Rc";

/** Calls `operation` with valid arguments; `completeScmAppRequest` sends `code`. */
export type OperationCall = (client: CodeSecClient, code?: string) => Promise<unknown>;

export const OPERATION_CALLS: Readonly<Record<OperationKey, OperationCall>> = {
  updateUserRole: (client) =>
    client.updateUserRole({ deploymentId: "42", userId: "u-2", newRole: "ORG_ROLE_ADMIN" }),
  provisionWorkflows: (client) =>
    client.provisionWorkflows({ deploymentId: "42", filters: { ids: ["101"] } }),
  completeScmAppRequest: (client, code = SCM_APP_CODE) =>
    client.completeScmAppRequest({ requestId: "req-1", code }),
  getScmApp: (client) => client.getScmApp({ deploymentId: "42", requestId: "req-1" }),
  subscribeScmWebhook: (client) => client.subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" }),
  getScan: (client) => client.getScan({ deploymentId: "42", scanId: "1001" }),
  getBranch: (client) => client.getBranch({ deploymentId: "42", projectId: "7", branchId: "3" }),
  getCurrentUser: (client) => client.getCurrentUser(),
  listJoinableOrganizations: (client) => client.listJoinableOrganizations({ userId: "u-1" }),
  listNotificationRules: (client) => client.listNotificationRules({ deploymentId: "42", limit: 10 }),
};

export const OPERATION_KEYS = Object.keys(OPERATION_CALLS) as OperationKey[];

/** A valid answer (2xx body) of each operation. */
export const OPERATION_ANSWERS: Readonly<Record<OperationKey, Record<string, unknown>>> = {
  updateUserRole: {},
  provisionWorkflows: SAMPLES.provision,
  completeScmAppRequest: { app: SAMPLES.app },
  getScmApp: { app: SAMPLES.app },
  subscribeScmWebhook: SAMPLES.subscription,
  getScan: { scan: SAMPLES.scan },
  getBranch: { branch: SAMPLES.branch },
  getCurrentUser: { user: SAMPLES.user },
  listJoinableOrganizations: SAMPLES.orgs,
  listNotificationRules: { notification_rules: [SAMPLES.rule(1)] },
};
