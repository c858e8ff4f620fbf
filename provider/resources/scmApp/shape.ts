/** The shape of `codesec.ScmApp`: written once, used for the class types, for `check` and for the docs. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../../../api/typeBuilder";
import { outputKeys } from "../../dynamic/resourceProps";
import { NumericId, OpaqueId } from "../../../api/schemas/common";
import { OneTimeCode, ScmApp } from "../../../api/schemas/scm";
import { described } from "../../../api/schemaIssues";
import { ConnectionInput } from "../../connection";
import { PLATFORM_OUTPUT, type RecordedPlatform } from "../platformOutput";
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

/**
 * The connected app's fields, flat, as every other resource (and pulumi-github) exposes outputs: the API's
 * `ScmApp` without `requestId` (already an input, with the same value) and with its `id` as `scmAppId`
 * (`id` is the resource's own id, `deploymentId/requestId`). Refresh updates them (operation 4).
 */
export const ScmAppOutputs = Type.Object({
  scmAppId: described(Type.String(), "The platform's id of the connected app (the API's `ScmApp.id`)."),
  ...Type.Omit(ScmApp, ["id", "requestId"]).properties,
  ...PLATFORM_OUTPUT,
});
export type ScmAppOutputs = Static<typeof ScmAppOutputs>;

/** The output properties of the class, in the order the docs list them. */
export const SCM_APP_OUTPUTS = outputKeys(ScmAppOutputs);

/** What the state holds: the inputs but `code`, the app as the platform last reported it, and a baseline. */
export type ScmAppState = Omit<ScmAppInputs, "code"> &
  Omit<ScmAppOutputs, "platform"> &
  RecordedPlatform & {
    /**
     * Internal, not an output property of the class: the app (as operation 4 returns it) as of the last
     * create, import or `pulumi up`. When a refresh finds the platform's app different from it (a change
     * made in the platform's UI), diff reports a change: `pulumi refresh` shows it field by field
     * (`~ scmName: "applied" => "reported"`) and a drift check (`pulumi refresh --preview-only
     * --expect-no-changes`) fails; `pulumi up` records it (the platform has no operation to change an app
     * back).
     */
    appliedApp: ScmApp;
  };

/** The state written by pulumi-codesec 0.2.0: the app nested under `app`. Read and diff migrate it. */
export type ScmAppStateV020 = Omit<ScmAppInputs, "code"> & { app: ScmApp; appliedApp: ScmApp };

export const SCM_APP_IDENTITY = ["deploymentId", "requestId"] as const;
