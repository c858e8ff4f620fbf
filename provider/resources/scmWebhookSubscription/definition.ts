/**
 * `codesec.ScmWebhookSubscription`: an SCM configuration's subscription to SCM webhook events. Its one
 * definition: every field, what a change to it does, its id and import rule, and its implementation
 * (./implementation.ts).
 */
import { describeOperation } from "../../../api/operations";
import { Type } from "../../../api/typeBuilder";
import { OpaqueId } from "../../../api/schemas/common";
import { defineResource, type InputsOf, type StateOf } from "../definition";
import { connectionField, deploymentIdField, platformOutput, triggersField } from "../commonFields";
import { scmWebhookSubscriptionImplementation } from "./implementation";

const inputs = {
  deploymentId: deploymentIdField,
  configId: {
    schema: OpaqueId,
    description: "The SCM configuration whose webhooks the platform subscribes to.",
    onChange: "replace",
  },
  triggers: triggersField("subscribes again"),
  connection: connectionField,
} as const;

const outputs = {
  scmUrl: {
    schema: Type.String(),
    description: "Address of the SCM system the platform receives events from.",
  },
  events: {
    schema: Type.Array(Type.String()),
    description: "The subscribed SCM event names, as the platform chose them (e.g. `pull_request`, `push`).",
  },
  platform: platformOutput,
} as const;

export type ScmWebhookSubscriptionInputs = InputsOf<typeof inputs>;
export type ScmWebhookSubscriptionState = StateOf<typeof inputs, typeof outputs>;

export const scmWebhookSubscriptionDefinition = defineResource({
  name: "ScmWebhookSubscription",
  description:
    "Subscribes an SCM configuration of a deployment to SCM webhook events. `deploymentId` " +
    "and `configId` identify it; a new `triggers` value subscribes again. The platform cannot read a " +
    "subscription back or remove it: refresh keeps the state, and destroy only removes the resource from " +
    "the stack (the subscription stays).",
  operations: describeOperation("subscribeScmWebhook"),
  getExample: `// Refused: the platform cannot read a subscription back, so there is nothing to look up.
const found = codesec.ScmWebhookSubscription.get("hooks", "1001/scmcfg-1001-a");`,
  idParts: ["deploymentId", "configId"],
  inputs,
  outputs,
  importRule: {
    kind: "refused",
    why:
      "the platform has no operation that reads a subscription back (docs/drift.md), so there is nothing to " +
      "import it from. Declare it in the program instead: creating it subscribes (subscribing is idempotent).",
  },
  unseenByRefresh: {
    why: "the platform has no read operation for webhook subscriptions",
    visibility: "none",
  },
  implementation: scmWebhookSubscriptionImplementation,
});
