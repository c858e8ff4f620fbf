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

export type ScmAppState = ScmAppInputs & {
  /** The connected app as the platform last reported it (operation 4); refresh updates it. */
  app: ScmApp;
  /**
   * The app as of the last create, import or `pulumi up`. When a refresh finds `app` different from it
   * (a change made in the platform's UI), the resource shows as an update, so drift fails
   * `pulumi preview --refresh --expect-no-changes`; that update records the change (the platform has
   * no operation to change an app back).
   */
  appliedApp: ScmApp;
};

export const SCM_APP_IDENTITY = ["deploymentId", "requestId"] as const;
export const SCM_APP_OUTPUTS = ["app", "appliedApp"] as const;
