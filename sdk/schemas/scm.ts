/** Source code management: operations 3, 4 and 5. */
import { Type, type Static } from "@sinclair/typebox";

export const SCM_TYPES = ["SCM_TYPE_PROVIDERA"] as const;

export const ScmApp = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  appId: Type.String(),
  /** SCM_TYPE_PROVIDERA is the value the spec gives; other values are kept as they come. */
  scmType: Type.String(),
  baseUrl: Type.String(),
  requestId: Type.String(),
  scmName: Type.String(),
  codeAccess: Type.Boolean(),
  tenantId: Type.String(),
});
export type ScmApp = Static<typeof ScmApp>;

export const ScmAppResponse = Type.Object({ app: ScmApp });
export type ScmAppResponse = Static<typeof ScmAppResponse>;

/** Body of operation 3 (PUT /api/scm/app_request_complete). `code` is a one-time secret. */
export const CompleteScmAppRequestBody = Type.Object(
  { requestId: Type.String({ minLength: 1 }), code: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export type CompleteScmAppRequestBody = Static<typeof CompleteScmAppRequestBody>;

export const SCM_WEBHOOK_EVENTS = [
  "pull_request",
  "push",
  "installation",
  "installation_repositories",
] as const;

export const ScmWebhookSubscription = Type.Object({
  scmUrl: Type.String(),
  events: Type.Array(Type.String()),
});
export type ScmWebhookSubscription = Static<typeof ScmWebhookSubscription>;

export const SubscribeScmWebhookResponse = Type.Object({
  deploymentId: Type.String(),
  configId: Type.String(),
  subscription: ScmWebhookSubscription,
});
export type SubscribeScmWebhookResponse = Static<typeof SubscribeScmWebhookResponse>;
