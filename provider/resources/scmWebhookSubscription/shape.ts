/** The shape of `codesec.ScmWebhookSubscription`: written once, used for the class types, for `check` and for the docs. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../../../api/typeBuilder";
import { outputKeys } from "../../dynamic/resourceProps";
import { NumericId, OpaqueId } from "../../../api/schemas/common";
import { described } from "../../../api/schemaIssues";
import { ConnectionInput } from "../../connection";
import { PLATFORM_OUTPUT, type RecordedPlatform } from "../platformOutput";
import {
  CONNECTION_DESCRIPTION,
  DEPLOYMENT_ID_DESCRIPTION,
  TRIGGERS_DESCRIPTION,
} from "../fieldDescriptions";

export const ScmWebhookSubscriptionInputs = Type.Object(
  {
    deploymentId: described(NumericId, DEPLOYMENT_ID_DESCRIPTION),
    configId: described(OpaqueId, "The SCM configuration whose webhooks the platform subscribes to."),
    triggers: described(Type.Optional(Type.Unknown()), TRIGGERS_DESCRIPTION),
    connection: described(Type.Optional(ConnectionInput), CONNECTION_DESCRIPTION),
  },
  { additionalProperties: false },
);
export type ScmWebhookSubscriptionInputs = Static<typeof ScmWebhookSubscriptionInputs>;

export const ScmWebhookSubscriptionOutputs = Type.Object({
  scmUrl: described(Type.String(), "Address of the SCM system the platform receives events from."),
  events: described(
    Type.Array(Type.String()),
    "The subscribed SCM event names, as the platform chose them (e.g. `pull_request`, `push`).",
  ),
  ...PLATFORM_OUTPUT,
});
export type ScmWebhookSubscriptionState = ScmWebhookSubscriptionInputs &
  Omit<Static<typeof ScmWebhookSubscriptionOutputs>, "platform"> &
  RecordedPlatform;

export const SCM_WEBHOOK_SUBSCRIPTION_IDENTITY = ["deploymentId", "configId"] as const;
export const SCM_WEBHOOK_SUBSCRIPTION_REAPPLY = ["triggers"] as const;
export const SCM_WEBHOOK_SUBSCRIPTION_OUTPUTS = outputKeys(ScmWebhookSubscriptionOutputs);
