/** The shape of `codesec.ScmApp`: written once, used for the class types and for `check`. */
import { Type, type Static } from "@sinclair/typebox";
import { NumericId, OpaqueId } from "../../../api/schemas/common";
import { OneTimeCode, type ScmApp } from "../../../api/schemas/scm";
import { ConnectionInput } from "../../connection";

export const ScmAppInputs = Type.Object(
  {
    /** Deployment (organization) id. Changing it replaces the resource. */
    deploymentId: NumericId,
    /** The SCM app request to complete. Changing it replaces the resource. */
    requestId: OpaqueId,
    /**
     * One-time code of the SCM app request. Secret and write-once: it is used by create only, and a new
     * value alone is no change. Leave it out to adopt (import) an app that is already connected.
     */
    code: Type.Optional(OneTimeCode),
    /** Which connection to use: a name from stack config codesec:connections. Never diffed. */
    connection: Type.Optional(ConnectionInput),
  },
  { additionalProperties: false },
);
export type ScmAppInputs = Static<typeof ScmAppInputs>;

/**
 * The connected app's fields, flat, as every other resource (and pulumi-github) exposes outputs: the API's
 * `ScmApp` without `requestId` (already an input, with the same value) and with its `id` as `scmAppId`
 * (`id` is the resource's own id, `deploymentId/requestId`).
 */
export type ScmAppOutputs = Omit<ScmApp, "id" | "requestId"> & {
  /** The platform's id of the connected app (the API's `ScmApp.id`). */
  scmAppId: string;
};

/** The output properties of the class, in the order the docs list them. */
export const SCM_APP_OUTPUTS = [
  "scmAppId",
  "slug",
  "appId",
  "scmType",
  "baseUrl",
  "scmName",
  "codeAccess",
  "tenantId",
] as const satisfies readonly (keyof ScmAppOutputs)[];

/** What the state holds: the inputs but `code`, the app as the platform last reported it, and a baseline. */
export type ScmAppState = Omit<ScmAppInputs, "code"> &
  ScmAppOutputs & {
    /**
     * Internal, not an output property of the class: the app (as operation 4 returns it) as of the last
     * create, import or `pulumi up`. When a refresh finds the platform's app different from it (a change
     * made in the platform's UI), the resource shows as an update, so drift fails
     * `pulumi preview --refresh --expect-no-changes`; that update records the change (the platform has
     * no operation to change an app back).
     */
    appliedApp: ScmApp;
  };

/** The state written by pulumi-codesec 0.2.0: the app nested under `app`. Read and diff migrate it. */
export type ScmAppStateV020 = Omit<ScmAppInputs, "code"> & { app: ScmApp; appliedApp: ScmApp };

export const SCM_APP_IDENTITY = ["deploymentId", "requestId"] as const;
