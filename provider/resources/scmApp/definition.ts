/**
 * `codesec.ScmApp`: an SCM app connected to a deployment. Its one definition: every field, what a change
 * to it does, its id and import rule, and its implementation (./implementation.ts).
 */
import { describeOperation } from "../../../api/operations";
import { Type } from "../../../api/typeBuilder";
import { OpaqueId } from "../../../api/schemas/common";
import { OneTimeCode, ScmApp } from "../../../api/schemas/scm";
import { defineResource, type InputsOf, type OutputField, type StateOf } from "../definition";
import { connectionField, deploymentIdField, platformOutput } from "../commonFields";
import { scmAppImplementation } from "./implementation";

/**
 * Update makes no call (the platform cannot change an app), so an input the platform receives reaches it at
 * creation only: a sent input is one whose change replaces the app (`replace`) or is no change (`never`).
 */
const inputs = {
  deploymentId: deploymentIdField,
  requestId: {
    schema: OpaqueId,
    description: "The SCM app request to complete (or, without `code`, to adopt).",
    onChange: "replace",
  },
  code: {
    schema: Type.Optional(OneTimeCode),
    description:
      "One-time code of the SCM app request. Secret and write-once: create uses it to complete the request, " +
      "and a new value alone is no change. Leave it out to adopt an app that is already connected.",
    onChange: "never",
    secret: true,
    writeOnly: true,
  },
  connection: connectionField,
} as const;

/** The API's app fields but `id` (the output `scmAppId`) and `requestId` (already an input). */
const { id: _id, requestId: _requestId, ...appFields } = ScmApp.properties;

/**
 * The connected app's fields, flat, as every other resource (and pulumi-github) exposes outputs, with the
 * API's `id` as `scmAppId` (`id` is the resource's own id, `deploymentId/requestId`). Refresh updates them
 * (`getScmApp`).
 */
const outputs = {
  scmAppId: {
    schema: Type.String(),
    description: "The platform's id of the connected app (the API's `ScmApp.id`).",
  },
  ...(Object.fromEntries(
    Object.entries(appFields).map(([name, schema]) => [
      name,
      { schema, description: String(schema.description) },
    ]),
  ) as { [K in keyof typeof appFields]: OutputField<(typeof appFields)[K]> }),
  platform: platformOutput,
} as const;

export type ScmAppInputs = InputsOf<typeof inputs>;
/**
 * What the state holds: the inputs but `code` (used once, by create), the app as the platform last
 * reported it, and `appliedApp`, internal and not an output property: the app (as `getScmApp` returns it)
 * as of the last create, import or `pulumi up`. When a refresh finds the platform's app different from it
 * (a change made in the platform's UI), diff reports a change: `pulumi refresh` shows it field by field
 * (`~ scmName: "applied" => "reported"`) and a drift check fails; `pulumi up` records it (the platform
 * has no operation to change an app back).
 */
export type ScmAppState = Omit<StateOf<typeof inputs, typeof outputs>, "code"> & { appliedApp?: ScmApp };

export const scmAppDefinition = defineResource({
  name: "ScmApp",
  description:
    "An SCM app connected to a deployment. Create completes the SCM app request with its one-time `code`; " +
    "without a code, it adopts the app already connected under `requestId`. Refresh and import read it, " +
    "so a change made on the platform shows as drift. `deploymentId` and " +
    "`requestId` identify it; nothing changes in place. Destroy only removes the resource from the stack.",
  operations:
    `${describeOperation("completeScmAppRequest")}; refresh and import: ` + describeOperation("getScmApp"),
  getExample: `const connected = codesec.ScmApp.get("legacy", "1001/apprq-1001-done");
export const legacySlug = connected.slug;`,
  idParts: ["deploymentId", "requestId"],
  inputs,
  outputs,
  importRule: { kind: "read" },
  implementation: scmAppImplementation,
});
