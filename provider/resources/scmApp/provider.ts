/**
 * `codesec.ScmApp`: operation 3 completes the app request with its one-time code; operation 4 reads the
 * app back, so refresh finds drift, and a resource declared without a code adopts (imports) an app that
 * is already connected.
 */
import type * as pulumi from "@pulumi/pulumi";
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
import { clientForResource } from "../../dynamic/runtimeCredentials";
import { withRotationAdvice } from "../../dynamic/staleCredentials";

const TYPE = "codesec:ScmApp";

/**
 * A key of the inputs the engine holds (never of the outputs), written by `read` when it finds drift:
 * the drifted fields as the platform now reports them. The dynamic-provider protocol of
 * `@pulumi/pulumi` passes no `detailedDiff` from `diff`, so `pulumi preview --diff` renders an update by
 * comparing the old inputs with the new ones. `read` therefore records each drifted field's applied
 * value in the old inputs and its reported value here, and `check` copies it into the new inputs: the
 * update step then reads `~ scmName: "applied" => "reported"`.
 */
export const PLATFORM_REPORTED = "platformReported";

type AppFields = ScmAppOutputs;

/** The API's app as the flat output properties. */
function flatFields(app: ScmApp): AppFields {
  const { id, requestId: _requestId, ...rest } = app;
  return { scmAppId: id, ...rest };
}

/** The flat output properties of a state, back in the API's shape (for the applied baseline). */
function appOfState(state: ScmAppState): ScmApp {
  const app = { id: state.scmAppId, requestId: state.requestId } as Record<string, unknown>;
  for (const key of SCM_APP_OUTPUTS) if (key !== "scmAppId") app[key] = state[key];
  return app as ScmApp;
}

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
function stateOf(inputs: Partial<ScmAppInputs>, app: ScmApp): ScmAppState {
  return { ...identityAndConnection(inputs), ...flatFields(app), appliedApp: app };
}

/** The flat fields whose reported value differs from the applied one (a change made on the platform). */
function driftedFields(state: ScmAppState): (keyof AppFields)[] {
  if (state.appliedApp === undefined) return [];
  const applied = flatFields(state.appliedApp);
  return SCM_APP_OUTPUTS.filter((key) => !sameValue(state[key], applied[key]));
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

/** The inputs as the program declared them, without what `check` carried over from a refresh. */
function withoutReported(news: ScmAppInputs): ScmAppInputs {
  const inputs = { ...news } as Record<string, unknown>;
  delete inputs[PLATFORM_REPORTED];
  for (const key of SCM_APP_OUTPUTS) delete inputs[key];
  return inputs as ScmAppInputs;
}

const inputRules = checkAndDiff(ScmAppInputs, TYPE, { replaceOn: SCM_APP_IDENTITY, updateOn: [] });

export const scmAppProvider: pulumi.dynamic.ResourceProvider<ScmAppInputs, ScmAppState> = {
  async check(olds, news) {
    const result = await inputRules.check(olds, news);
    const reported = (olds as Record<string, unknown>)[PLATFORM_REPORTED];
    const sameIdentity = SCM_APP_IDENTITY.every((key) => sameValue(olds[key], news[key]));
    if (result.failures !== undefined || reported === undefined || !sameIdentity) return result;
    // A refresh found drift (see PLATFORM_REPORTED): the new inputs carry the reported values, so that
    // the update step names each drifted field. The code is left out as read's inputs leave it out: it
    // is only ever used by create, and with the same identity there is no create.
    const { code: _code, ...inputs } = result.inputs as ScmAppInputs;
    return { inputs: { ...inputs, ...(reported as object), [PLATFORM_REPORTED]: reported } };
  },

  async diff(id, olds, news) {
    // `code` is write-once and `connection` is a credential: neither is ever a change. Drift found by
    // refresh is one, so that a drift check sees it; the update records it. So is a state written by
    // 0.2.0, once, so that `up` rewrites it with the flat outputs (with no call).
    const result = await inputRules.diff(id, olds, withoutReported(news));
    const drifted = driftedFields(migrateState(olds)).length > 0 || isV020State(olds);
    return drifted ? { ...result, changes: true } : result;
  },

  async create(inputs) {
    const client = clientForResource(inputs);
    const id = formatResourceId(inputs.deploymentId, inputs.requestId);
    const { deploymentId, requestId } = inputs;
    // Only an absent code means "adopt"; an empty one is refused by the client, as by check.
    if (inputs.code !== undefined) {
      try {
        const app = await client.completeScmAppRequest({ requestId, code: inputs.code });
        return { id, outs: stateOf(inputs, app) };
      } catch (error) {
        if (error instanceof CodeSecOutcomeUnknownError) {
          // The completion may or may not have happened, and its code cannot be sent twice: the
          // platform's record of the app (operation 4) says which.
          return { id, outs: stateOf(inputs, await resolveUnknownOutcome(client, inputs, error)) };
        }
        // Already completed: typically an earlier create whose answer was lost (an interrupted `up`).
        // The app connected under this request is the one to record.
        if (!(error instanceof CodeSecApiError && error.status === 409)) throw error;
      }
    }
    // No code (or a request already completed): adopt the app connected under this request id. (The
    // engine's `import` option cannot reach dynamic providers: pulumi/pulumi#16175.)
    try {
      return { id, outs: stateOf(inputs, await client.getScmApp({ deploymentId, requestId })) };
    } catch (error) {
      if (isPlatformNotFound(error)) {
        throw new Error(
          `${TYPE}: no connected SCM app has request id "${requestId}" in deployment ${deploymentId}. ` +
            `To connect a new app, give the request's one-time code as \`code\` (a secret).`,
        );
      }
      throw error;
    }
  },

  async update(_id, olds, news) {
    // Nothing on the platform can be changed: record the app as the platform reports it (accepting
    // drift found by refresh) with the new inputs.
    return { outs: stateOf(news, appOfState(migrateState(olds))) };
  },

  async read(id, props) {
    const { deploymentId, key: requestId } = parseResourceId(id, TYPE, "requestId");
    const state = migrateState(props ?? {});
    let app: ScmApp;
    try {
      app = await withRotationAdvice(() => clientForResource(state).getScmApp({ deploymentId, requestId }));
    } catch (error) {
      // Gone on the platform: an empty id tells the engine to drop it from state on refresh.
      if (isPlatformNotFound(error)) return {};
      throw error;
    }
    // `appliedApp` stays as applied: a difference from the reported fields is the drift that diff reports.
    const refreshed: ScmAppState = { ...state, deploymentId, requestId, ...flatFields(app) };
    // A lookup by id (`ScmApp.get`) has no state yet: the app as read is its baseline.
    if (isLookup(props)) return { id, props: { ...withoutEngineKeys(refreshed), appliedApp: app } };
    const drifted = driftedFields(refreshed);
    if (drifted.length === 0) {
      // When the last refresh had found drift (the state says so: its fields differ from the baseline),
      // the inputs the engine keeps still hold that refresh's record. The platform has since gone back:
      // reset the record, or a later update would show (and store) a change the platform never made.
      const hadDrift = driftedFields(state).length > 0;
      if (!hadDrift) return { id, props: refreshed };
      return { id, props: refreshed, inputs: identityAndConnection(refreshed) as unknown as ScmAppState };
    }
    // Drift: the old inputs get each drifted field's applied value, and the reported values to carry
    // into the new inputs (see PLATFORM_REPORTED), so that `pulumi preview --diff` names the fields.
    const applied = flatFields(refreshed.appliedApp);
    const inputs: Record<string, unknown> = { ...identityAndConnection(refreshed) };
    const reported: Record<string, unknown> = {};
    for (const key of drifted) {
      inputs[key] = applied[key];
      reported[key] = refreshed[key];
    }
    inputs[PLATFORM_REPORTED] = reported;
    // (`ReadResult` types its inputs as the outputs; these are the inputs the engine keeps.)
    return { id, props: refreshed, inputs: inputs as unknown as ScmAppState };
  },

  async delete() {
    // No delete endpoint: the app stays connected on the platform; the resource leaves the state.
  },
};
