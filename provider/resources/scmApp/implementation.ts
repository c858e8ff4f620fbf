/**
 * The calls behind `codesec.ScmApp` (its definition: ./definition.ts): `completeScmAppRequest` completes the
 * app request with its one-time code; `getScmApp` reads the app back, so refresh finds drift, and a resource
 * declared without a code (or an import) adopts an app that is already connected.
 */
import { CodeSecApiError, CodeSecOutcomeUnknownError, type CodeSecClient } from "../../../client";
import {
  CompleteScmAppRequestArgs,
  GetScmAppArgs,
  ScmApp as ScmAppSchema,
  type ScmApp,
} from "../../../api/schemas/scm";
import { clientOf, connectionOf } from "../../providerContext";
import { formatResourceId, parseResourceId } from "../resourceIds";
import { isPlatformNotFound } from "../platformNotFound";
import { withRotationAdvice } from "../staleCredentials";
import { keptInputNames, sameValue } from "../definition";
import { operationArguments } from "../operationArguments";
import type { KindContext, KindImplementation } from "../kindImplementation";
import type { ScmAppInputs, ScmAppState } from "./definition";
import { CodeSecResourceError } from "../../errors";

/** The API's app fields kept as they are (its `id` is the output `scmAppId`; `requestId` is an input). */
type KeptAppField = Exclude<keyof ScmApp, "id" | "requestId">;

/** The connected app's fields as the flat output properties (all outputs but `platform`). */
type AppFields = Pick<Required<ScmAppState>, "scmAppId" | KeptAppField>;

/** Their names, from the API's app schema, in its order after `scmAppId`. */
const APP_FIELDS: readonly (keyof AppFields)[] = [
  "scmAppId",
  ...(Object.keys(ScmAppSchema.properties).filter(
    (name) => name !== "id" && name !== "requestId",
  ) as KeptAppField[]),
];

/**
 * Keys that 0.4.0 wrote into the inputs the engine keeps, to make `pulumi preview --diff` name drifted
 * fields: the reported values under `platformReported`, and each drifted field's applied value. They read
 * backwards next to every other kind (`~ scmName: "applied" => "reported"` meant "record the platform's
 * value") and stayed in the inputs for good, so nothing writes them any more: the program's inputs never
 * hold them, so the next update's stored inputs are clean; the outputs drop them on refresh.
 */
const LEGACY_KEYS = ["platformReported"] as const;

/** The API's app as the flat output properties. */
function flatFields(app: ScmApp): AppFields {
  const { id, requestId: _requestId, ...rest } = app;
  return { scmAppId: id, ...rest };
}

/** The flat output properties of a state, back in the API's shape (for the applied baseline). */
function appOfState(state: ScmAppState): ScmApp {
  const app = { id: state.scmAppId, requestId: state.requestId } as Record<string, unknown>;
  for (const key of APP_FIELDS) if (key !== "scmAppId") app[key] = state[key];
  return app as ScmApp;
}

/** The state written by pulumi-codesec 0.2.0: the app nested under `app` (and `appliedApp`). */
type ScmAppStateV020 = Omit<ScmAppState, keyof AppFields> & { app: ScmApp; appliedApp: ScmApp };

/**
 * The state in the current shape. A stack created by 0.2.0 holds the app nested under `app`; its fields
 * become the flat outputs, and `appliedApp` stays the baseline, so that a drift refreshed into 0.2.0
 * state is still reported once. Keys 0.4.0 kept are dropped.
 */
export function migrateState(props: Record<string, unknown>): ScmAppState {
  const state = { ...props } as Partial<ScmAppStateV020> & Partial<ScmAppState> & Record<string, unknown>;
  for (const key of LEGACY_KEYS) delete state[key];
  if (state.app === undefined) return state as ScmAppState;
  const { app, ...rest } = state;
  return { ...rest, ...flatFields(app), appliedApp: rest.appliedApp ?? app } as ScmAppState;
}

/** Whether a state was written by 0.2.0 (so an `up` rewrites it, with no call). */
function isV020State(props: object): boolean {
  const app = (props as { app?: unknown }).app;
  return app !== null && typeof app === "object";
}

/** The inputs kept in the state: every input the definition keeps, so never the write-only code. */
function keptInputs(inputs: Partial<ScmAppInputs>, ctx: KindContext): Omit<ScmAppInputs, "code"> {
  const values = inputs as Record<string, unknown>;
  return Object.fromEntries(
    keptInputNames({ inputs: ctx.inputFields })
      .filter((name) => values[name] !== undefined)
      .map((name) => [name, values[name]]),
  ) as Omit<ScmAppInputs, "code">;
}

/** The state: the code is used once, by create; it is not kept. */
function stateOf(inputs: Partial<ScmAppInputs>, app: ScmApp, ctx: KindContext): ScmAppState {
  return { ...keptInputs(inputs, ctx), ...flatFields(app), appliedApp: app };
}

/** The flat fields whose reported value differs from the applied one (a change made on the platform). */
function driftedFields(state: ScmAppState): (keyof AppFields)[] {
  if (state.appliedApp === undefined) return [];
  const applied = flatFields(state.appliedApp);
  return APP_FIELDS.filter((key) => !sameValue(state[key], applied[key]));
}

/**
 * After a completion whose outcome is unknown: the app, when the platform shows it connected (the
 * completion happened); otherwise an error saying that nothing was completed and a new `pulumi up`
 * may send the same code again.
 */
async function resolveUnknownOutcome(
  ctx: KindContext,
  client: CodeSecClient,
  inputs: ScmAppInputs,
  unknown: CodeSecOutcomeUnknownError,
): Promise<ScmApp> {
  try {
    return await client.getScmApp(operationArguments(GetScmAppArgs, inputs, ctx.inputFields));
  } catch (error) {
    if (isPlatformNotFound(error)) {
      throw new CodeSecResourceError(
        `${ctx.type}: completing SCM app request "${inputs.requestId}" failed with an unknown outcome (${unknown.message}) ` +
          `The platform shows no app connected under it, so the request was not completed: run \`pulumi up\` ` +
          "again to complete it with the same code.",
        { cause: unknown },
      );
    }
    // Still unknown: say both what happened and how to find out.
    throw unknown;
  }
}

/**
 * The app connected under the request (`getScmApp`), for adoption: a missing one is an error saying what to
 * do.
 */
async function connectedApp(ctx: KindContext, inputs: Partial<ScmAppInputs>, where: string): Promise<ScmApp> {
  const { deploymentId, requestId } = inputs as ScmAppInputs;
  try {
    return await clientOf(ctx, inputs).getScmApp(operationArguments(GetScmAppArgs, inputs, ctx.inputFields));
  } catch (error) {
    if (isPlatformNotFound(error)) {
      throw new CodeSecResourceError(
        `${ctx.type}: no connected SCM app has request id "${requestId}" in deployment ${deploymentId}${where}. ` +
          `To connect a new app, give the request's one-time code as \`code\` (a secret).`,
      );
    }
    throw error;
  }
}

export const scmAppImplementation: KindImplementation<ScmAppInputs, ScmAppState> = {
  sentArguments: [CompleteScmAppRequestArgs, GetScmAppArgs],

  // Drift found by refresh is a change, so that a drift check sees it; the update records it. So is a state
  // written by 0.2.0, once, so that `up` rewrites it with the flat outputs (with no call).
  pendingChanges(state) {
    const migrated = migrateState(state);
    return [...driftedFields(migrated), ...(isV020State(state) ? ["app"] : [])];
  },

  async create(inputs, ctx) {
    const client = clientOf(ctx, inputs);
    const id = formatResourceId(inputs.deploymentId, inputs.requestId);
    // Only an absent code means "adopt"; an empty one is refused by the client, as by check.
    if (inputs.code !== undefined) {
      try {
        const app = await client.completeScmAppRequest(
          operationArguments(CompleteScmAppRequestArgs, inputs, ctx.inputFields),
        );
        return { id, state: stateOf(inputs, app, ctx) };
      } catch (error) {
        if (error instanceof CodeSecOutcomeUnknownError) {
          // The completion may or may not have happened, and its code cannot be sent twice: the
          // platform's record of the app (`getScmApp`) says which.
          return { id, state: stateOf(inputs, await resolveUnknownOutcome(ctx, client, inputs, error), ctx) };
        }
        // Already completed: typically an earlier create whose answer was lost (an interrupted `up`).
        // The app connected under this request is the one to record.
        if (!(error instanceof CodeSecApiError && error.status === 409)) throw error;
      }
    }
    // No code (or a request already completed): adopt the app connected under this request id.
    return { id, state: stateOf(inputs, await connectedApp(ctx, inputs, ""), ctx) };
  },

  async update(id, olds, news, plan, ctx) {
    if (plan.ownership.kind === "moving") {
      // Moved on purpose: the app connected under the request on the new platform is the one to record.
      return stateOf(news, await connectedApp(ctx, news, ` on ${plan.ownership.platform}`), ctx);
    }
    // Nothing on the platform can be changed: record the app as the platform reports it (accepting drift
    // found by refresh), saying what is recorded, since a plan cannot show it as a change of the platform
    // (there is none: the platform cannot change an app back).
    const state = migrateState(olds);
    const drifted = driftedFields(state);
    if (drifted.length > 0) {
      const applied = flatFields(state.appliedApp!);
      const changes = drifted.map(
        (key) => `${key} ${JSON.stringify(applied[key])} -> ${JSON.stringify(state[key])}`,
      );
      ctx.log(
        "info",
        `${ctx.type} ${id}: recorded the app as the platform now reports it (${changes.join(", ")}), changed ` +
          "outside Pulumi; the platform has no operation to change an SCM app back, so no call was made.",
      );
    }
    return stateOf(news, appOfState(state), ctx);
  },

  async read(id, props, ctx) {
    const { deploymentId, key: requestId } = parseResourceId(id, ctx.type, "requestId");
    const state = migrateState(props ?? {});
    let app: ScmApp;
    try {
      const { connection, client } = connectionOf(ctx, state);
      // The id names the app (an import has no state): its parts take the place of the inputs'.
      const args = operationArguments(GetScmAppArgs, state, ctx.inputFields, {
        given: { deploymentId, requestId },
      });
      app = await withRotationAdvice(() => client.getScmApp(args), connection);
    } catch (error) {
      // Gone on the platform (its own answer, on the resource's own platform): refresh drops it. An import
      // of an app that is not connected is an error.
      if (isPlatformNotFound(error)) {
        if (props === undefined) {
          throw new CodeSecResourceError(
            `${ctx.type} ${id}: no connected SCM app has request id "${requestId}" in deployment ${deploymentId}, ` +
              "so there is nothing to import. To connect it, declare the resource with the request's one-time " +
              "`code` (a secret).",
          );
        }
        return { gone: true };
      }
      throw error;
    }
    // `appliedApp` stays as applied: a difference from the reported fields is the drift that diff reports,
    // which `pulumi refresh` shows as `~ scmName: "applied" => "reported"`, as on every kind. An import
    // has no state yet: the app as read is its baseline.
    const refreshed: ScmAppState = {
      ...state,
      deploymentId,
      requestId,
      ...flatFields(app),
      appliedApp: props === undefined ? app : (state.appliedApp ?? app),
    };
    if (props === undefined) return { state: refreshed, inputs: { deploymentId, requestId } };
    return { state: refreshed };
  },

  async delete() {
    // No delete endpoint: the app stays connected on the platform; the resource leaves the state.
  },
};
