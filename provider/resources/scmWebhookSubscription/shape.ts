/** The shape of `codesec.ScmWebhookSubscription`: written once, used for the class types and for `check`. */
import { Type, type Static } from "@sinclair/typebox";
import { NumericId, OpaqueId } from "../../../api/schemas/common";
import { ConnectionInput } from "../../connection";

export const ScmWebhookSubscriptionInputs = Type.Object(
  {
    /** Deployment (organization) id. Changing it replaces the resource. */
    deploymentId: NumericId,
    /** The SCM configuration to subscribe. Changing it replaces the resource. */
    configId: OpaqueId,
    /** Any value; changing it subscribes again (the platform cannot be read back). */
    triggers: Type.Optional(Type.Unknown()),
    /** Which connection to use: a name from stack config codesec:connections. Never diffed. */
    connection: Type.Optional(ConnectionInput),
  },
  { additionalProperties: false },
);
export type ScmWebhookSubscriptionInputs = Static<typeof ScmWebhookSubscriptionInputs>;

export type ScmWebhookSubscriptionState = ScmWebhookSubscriptionInputs & {
  /** Address of the SCM system the platform receives events from. */
  scmUrl: string;
  /** The subscribed SCM event names, as the platform chose them. */
  events: string[];
};

export const SCM_WEBHOOK_SUBSCRIPTION_IDENTITY = ["deploymentId", "configId"] as const;
export const SCM_WEBHOOK_SUBSCRIPTION_REAPPLY = ["triggers"] as const;
export const SCM_WEBHOOK_SUBSCRIPTION_OUTPUTS = ["scmUrl", "events"] as const;
