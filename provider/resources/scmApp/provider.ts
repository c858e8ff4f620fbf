/**
 * `codesec.ScmApp`: operation 3 completes the app request with its one-time code; operation 4 reads the
 * app back, so refresh finds drift, and a resource declared without a code adopts (imports) an app that
 * is already connected.
 */
import * as pulumi from "@pulumi/pulumi";
import { CodeSecApiError, CodeSecOutcomeUnknownError, type CodeSecClient } from "../../../sdk";
import type { ScmApp } from "../../../api/schemas/scm";
import {
  SCM_APP_IDENTITY,
  SCM_APP_OUTPUTS,
  ScmAppInputs,
  type ScmAppOutputs,
  type ScmAppState,
  type ScmAppStateV020,
} from "./shape";
import { checkAndDiff } from "../../dynamic/checkAndDiff";
import { sameValue } from "../../dynamic/diffing";
import { withoutEngineKeys } from "../../dynamic/inputValidation";
import { isLookup } from "../../dynamic/lookup";
import { formatResourceId, parseResourceId } from "../../dynamic/resourceIds";
import { isPlatformNotFound } from "../../dynamic/platformNotFound";
import { clientForResource, ownershipOfResource, platformOfResource } from "../../dynamic/runtimeCredentials";
import { withRotationAdvice } from "../../dynamic/staleCredentials";

const TYPE = "codesec:ScmApp";

/**
 * Keys that 0.4.0 wrote into the inputs the engine keeps, to make `pulumi preview --diff` name drifted
 * fields: the reported values under `platformReported`, and each drifted field's applied value. They read
 * backwards next to every other kind (`~ scmName: "applied" => "reported"` meant "record the platform's
 * value") and stayed in the inputs for good, so nothing writes them any more: the program's inputs never
 * hold them, so the next update's stored inputs are clean; the outputs drop them on refresh.
 */
const LEGACY_INPUT_KEYS = ["platformReported"] as const;

type AppFields = Omit<ScmAppOutputs, "platform">;

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

/** The output properties that come from the platform's app (all but `platform`). */
const APP_FIELDS = SCM_APP_OUTPUTS.filter((key): key is keyof AppFields => key !== "platform");

/**
 * The state in the current shape. A stack created by 0.2.0 holds the app nested under `app` (and
 * `appliedApp`); its fields become the flat outputs, and `appliedApp` stays the baseline, so that a
 * drift refreshed into 0.2.0 state is still reported once.
 */
export function migrateState(props: Record<string, unknown>): ScmAppState {
  const state = withoutEngineKeys(props) as Partial<ScmAppStateV020> & Partial<ScmAppState>;
  if (state.app === undefined) return state as ScmAppState;
  const { app, ...rest } = state;
  return { ...rest, ...flatFields(app), appliedApp: rest.appliedApp ?? app } as ScmAppState;
}

/** Whether a state was written by 0.2.0 (so an `up` rewrites it, with no call). */
function isV020State(props: Record<string, unknown>): boolean {
  return props.app !== null && typeof props.app === "object";
}

/** The inputs kept in the state: the identity and the connection; never the code. */
function identityAndConnection(inputs: Partial<ScmAppInputs>): Omit<ScmAppInputs, "code"> {
  const { deploymentId, requestId, connection } = inputs as ScmAppInputs;
  return connection === undefined ? { deploymentId, requestId } : { deploymentId, requestId, connection };
}

/** The outputs: the code is used once, by create; it is not kept. */
function stateOf(inputs: Partial<ScmAppInputs>, app: ScmApp, platform: string): ScmAppState {
  return { ...identityAndConnection(inputs), ...flatFields(app), platform, appliedApp: app };
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
  client: CodeSecClient,
  inputs: ScmAppInputs,
  unknown: CodeSecOutcomeUnknownError,
): Promise<ScmApp> {
  const { deploymentId, requestId } = inputs;
  try {
    return await client.getScmApp({ deploymentId, requestId });
  } catch (error) {
    if (isPlatformNotFound(error)) {
      throw new Error(
        `${TYPE}: completing SCM app request "${requestId}" failed with an unknown outcome (${unknown.message}) ` +
          `The platform shows no app connected under it, so the request was not completed: run \`pulumi up\` ` +
          "again to complete it with the same code.",
      );
    }
    // Still unknown: say both what happened and how to find out.
    throw unknown;
  }
}

/** The app connected under the request (operation 4), for adoption: a missing one is an error saying what to do. */
async function connectedApp(inputs: ScmAppInputs, where: string): Promise<ScmApp> {
  const { deploymentId, requestId } = inputs;
  try {
    return await clientForResource(inputs).getScmApp({ deploymentId, requestId });
  } catch (error) {
    if (isPlatformNotFound(error)) {
      throw new Error(
        `${TYPE}: no connected SCM app has request id "${requestId}" in deployment ${deploymentId}${where}. ` +
          `To connect a new app, give the request's one-time code as \`code\` (a secret).`,
      );
    }
    throw error;
  }
}

/** The inputs as the program declared them, without the keys 0.4.0 kept in the inputs. */
function withoutLegacyKeys<T extends object>(inputs: T): T {
  const clean = { ...inputs } as Record<string, unknown>;
  for (const key of [...LEGACY_INPUT_KEYS, ...SCM_APP_OUTPUTS]) delete clean[key];
  return clean as T;
}

const inputRules = checkAndDiff(ScmAppInputs, TYPE, { replaceOn: SCM_APP_IDENTITY, updateOn: [] });

export const scmAppProvider: pulumi.dynamic.ResourceProvider<ScmAppInputs, ScmAppState> = {
  check: inputRules.check,

  async diff(id, olds, news) {
    // `code` is write-once and `connection` is a credential: neither is ever a change. Drift found by
    // refresh is one (the reported fields differ from the applied baseline), so that a drift check sees
    // it; the update records it. So is a state written by 0.2.0, once, so that `up` rewrites it with the
    // flat outputs (with no call).
    const result = await inputRules.diff(id, olds, withoutLegacyKeys(news));
    const drifted = driftedFields(migrateState(olds)).length > 0 || isV020State(olds);
    return drifted ? { ...result, changes: true } : result;
  },

  async create(inputs) {
    const client = clientForResource(inputs);
    const platform = platformOfResource(inputs);
    const id = formatResourceId(inputs.deploymentId, inputs.requestId);
    // Only an absent code means "adopt"; an empty one is refused by the client, as by check.
    if (inputs.code !== undefined) {
      try {
        const app = await client.completeScmAppRequest({ requestId: inputs.requestId, code: inputs.code });
        return { id, outs: stateOf(inputs, app, platform) };
      } catch (error) {
        if (error instanceof CodeSecOutcomeUnknownError) {
          // The completion may or may not have happened, and its code cannot be sent twice: the
          // platform's record of the app (operation 4) says which.
          const app = await resolveUnknownOutcome(client, inputs, error);
          return { id, outs: stateOf(inputs, app, platform) };
        }
        // Already completed: typically an earlier create whose answer was lost (an interrupted `up`).
        // The app connected under this request is the one to record.
        if (!(error instanceof CodeSecApiError && error.status === 409)) throw error;
      }
    }
    // No code (or a request already completed): adopt the app connected under this request id. (The
    // engine's `import` option cannot reach dynamic providers: pulumi/pulumi#16175.)
    return { id, outs: stateOf(inputs, await connectedApp(inputs, ""), platform) };
  },

  async update(id, olds, news) {
    const ownership = ownershipOfResource(olds.platform, news, { type: TYPE, id, step: "update" });
    if (ownership.kind === "moving") {
      // Moved on purpose: the app connected under the request on the new platform is the one to record.
      const app = await connectedApp(news, ` on ${ownership.platform}`);
      return { outs: stateOf(news, app, ownership.platform) };
    }
    // Nothing on the platform can be changed: record the app as the platform reports it (accepting drift
    // found by refresh), saying what is recorded, since `pulumi preview --diff` cannot show it as a change
    // of the platform (there is none: the platform cannot change an app back).
    const state = migrateState(olds);
    const drifted = driftedFields(state);
    if (drifted.length > 0) {
      const applied = flatFields(state.appliedApp);
      const changes = drifted.map(
        (key) => `${key} ${JSON.stringify(applied[key])} -> ${JSON.stringify(state[key])}`,
      );
      void pulumi.log.info(
        `${TYPE} ${id}: recorded the app as the platform now reports it (${changes.join(", ")}), changed ` +
          "outside Pulumi; the platform has no operation to change an SCM app back, so no call was made.",
      );
    }
    return { outs: stateOf(news, appOfState(state), ownership.platform) };
  },

  async read(id, props) {
    const { deploymentId, key: requestId } = parseResourceId(id, TYPE, "requestId");
    const state = migrateState(props ?? {});
    const ownership = ownershipOfResource(state.platform, state, { type: TYPE, id, step: "refresh" });
    // Being moved: the platform it is moving to does not hold it yet; the move's `pulumi up` adopts it.
    if (ownership.kind === "moving") return { id, props: state };
    let app: ScmApp;
    try {
      app = await withRotationAdvice(() => clientForResource(state).getScmApp({ deploymentId, requestId }));
    } catch (error) {
      // Gone on the platform (its own answer, on the resource's own platform): an empty id tells the
      // engine to drop it from state on refresh.
      if (isPlatformNotFound(error)) return {};
      throw error;
    }
    // `appliedApp` stays as applied: a difference from the reported fields is the drift that diff reports,
    // which `pulumi refresh` shows as `~ scmName: "applied" => "reported"`, as on every kind.
    const refreshed: ScmAppState = {
      ...withoutLegacyKeys(state),
      ...identityAndConnection(state),
      deploymentId,
      requestId,
      ...flatFields(app),
      platform: ownership.platform,
      appliedApp: state.appliedApp ?? app,
    };
    // A lookup by id (`ScmApp.get`) has no state yet: the app as read is its baseline.
    if (isLookup(props)) return { id, props: { ...refreshed, appliedApp: app } };
    return { id, props: refreshed };
  },

  async delete() {
    // No delete endpoint: the app stays connected on the platform; the resource leaves the state.
  },
};
