/** Source code management: `completeScmAppRequest`, `getScmApp` and `subscribeScmWebhook`. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { described, secretValue } from "../schemaIssues";
import { NumericId, OpaqueId } from "./common";

export const ScmApp = Type.Object({
  id: described(Type.String(), "The app's id."),
  slug: described(Type.String(), "The app's slug in the SCM."),
  appId: described(Type.String(), "The app's id in the SCM."),
  scmType: described(
    Type.String(),
    "The SCM's type: SCM_TYPE_PROVIDERA is the value the spec gives; other values are kept as they come.",
  ),
  baseUrl: described(Type.String(), "Base address of the SCM."),
  requestId: described(Type.String(), "The SCM app request that connected the app."),
  scmName: described(Type.String(), "The SCM's name."),
  codeAccess: described(Type.Boolean(), "Whether the app may read code."),
  tenantId: described(Type.String(), "The SCM tenant the app is installed in."),
});
export type ScmApp = Static<typeof ScmApp>;

export const ScmAppResponse = Type.Object({ app: ScmApp });
export type ScmAppResponse = Static<typeof ScmAppResponse>;

/**
 * The one-time code of an SCM app request: a secret, so messages about it never show its value. Blank
 * codes are refused (the platform issues none), surrounding spaces too (a copy-and-paste slip).
 */
export const OneTimeCode = secretValue(
  Type.String({
    pattern: "^\\S(?:.*\\S)?$",
    minLength: 1,
    maxLength: 1000,
    description: "the request's one-time code (non-blank, no surrounding spaces)",
  }),
);

/** Arguments of `getScmApp`. */
export const GetScmAppArgs = Type.Object(
  {
    deploymentId: described(NumericId, "Deployment (organization) id."),
    requestId: described(OpaqueId, "The SCM app request whose app to read."),
  },
  { additionalProperties: false },
);
export type GetScmAppArgs = Static<typeof GetScmAppArgs>;

/** Arguments of `subscribeScmWebhook`. */
export const SubscribeScmWebhookArgs = Type.Object(
  {
    deploymentId: NumericId,
    /** The SCM configuration id. */
    configId: OpaqueId,
  },
  { additionalProperties: false },
);
export type SubscribeScmWebhookArgs = Static<typeof SubscribeScmWebhookArgs>;

/** Body of `completeScmAppRequest` (PUT /api/scm/app_request_complete). `code` is a one-time secret. */
export const CompleteScmAppRequestBody = Type.Object(
  { requestId: OpaqueId, code: OneTimeCode },
  { additionalProperties: false },
);
export type CompleteScmAppRequestBody = Static<typeof CompleteScmAppRequestBody>;

/** Arguments of `completeScmAppRequest`: its body, as the method sends it. */
export const CompleteScmAppRequestArgs = CompleteScmAppRequestBody;
export type CompleteScmAppRequestArgs = CompleteScmAppRequestBody;

export const ScmWebhookSubscription = Type.Object({
  scmUrl: Type.String(),
  /** Event names: the spec leaves them open, so any strings are kept. */
  events: Type.Array(Type.String()),
});
export type ScmWebhookSubscription = Static<typeof ScmWebhookSubscription>;

export const SubscribeScmWebhookResponse = Type.Object({
  deploymentId: Type.String(),
  configId: Type.String(),
  subscription: ScmWebhookSubscription,
});
export type SubscribeScmWebhookResponse = Static<typeof SubscribeScmWebhookResponse>;
