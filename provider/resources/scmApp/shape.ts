/** The shape of `codesec.ScmApp`: written once, used for the class types, for `check` and for the docs. */
import { Type, type Static } from "@sinclair/typebox";
import { NumericId, OpaqueId } from "../../../api/schemas/common";
import { OneTimeCode, ScmApp } from "../../../api/schemas/scm";
import { described } from "../../../api/schemaIssues";
import { ConnectionInput } from "../../connection";
import { CONNECTION_DESCRIPTION, DEPLOYMENT_ID_DESCRIPTION } from "../fieldDescriptions";

export const ScmAppInputs = Type.Object(
  {
    deploymentId: described(NumericId, DEPLOYMENT_ID_DESCRIPTION),
    requestId: described(OpaqueId, "The SCM app request to complete (or, without `code`, to adopt)."),
    code: described(
      Type.Optional(OneTimeCode),
      "One-time code of the SCM app request. Secret and write-once: create uses it (operation 3), and a " +
        "new value alone is no change. Leave it out to adopt an app that is already connected.",
    ),
    connection: described(Type.Optional(ConnectionInput), CONNECTION_DESCRIPTION),
  },
  { additionalProperties: false },
);
export type ScmAppInputs = Static<typeof ScmAppInputs>;

export const ScmAppOutputs = Type.Object({
  app: described(
    ScmApp,
    "The connected app as the platform last reported it (operation 4: `id`, `slug`, `appId`, `scmType`, " +
      "`baseUrl`, `requestId`, `scmName`, `codeAccess`, `tenantId`); refresh updates it.",
  ),
  // When a refresh finds `app` different from this (a change made in the platform's UI), the resource
  // shows as an update, so drift fails `pulumi preview --refresh --expect-no-changes`.
  appliedApp: described(
    ScmApp,
    "The app as of the last create, adoption or `pulumi up`. A refresh that finds `app` different shows " +
      "an update, which records the change (the platform has no operation to change an app back).",
  ),
});
export type ScmAppState = ScmAppInputs & Static<typeof ScmAppOutputs>;

export const SCM_APP_IDENTITY = ["deploymentId", "requestId"] as const;
export const SCM_APP_OUTPUTS = ["app", "appliedApp"] as const;
