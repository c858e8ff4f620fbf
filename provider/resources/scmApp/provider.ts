/**
 * `codesec.ScmApp`: operation 3 completes the app request with its one-time code; operation 4 reads the
 * app back, so refresh finds drift, and a resource declared without a code adopts (imports) an app that
 * is already connected.
 */
import type * as pulumi from "@pulumi/pulumi";
import { CodeSecApiError, CodeSecOutcomeUnknownError, type CodeSecClient } from "../../../sdk";
import { SCM_APP_IDENTITY, ScmAppInputs, type ScmAppState } from "./shape";
import { checkAndDiff } from "../../dynamic/checkAndDiff";
import { sameValue } from "../../dynamic/diffing";
import { withoutEngineKeys } from "../../dynamic/inputValidation";
import { formatResourceId, parseResourceId } from "../../dynamic/resourceIds";
import { isPlatformNotFound } from "../../dynamic/platformNotFound";
import { clientForResource } from "../../dynamic/runtimeCredentials";
import { withRotationAdvice } from "../../dynamic/staleCredentials";

const TYPE = "codesec:ScmApp";

/** The code is used once, by create; it is not kept in the outputs. */
function stateOf(inputs: ScmAppInputs, app: ScmAppState["app"]): ScmAppState {
  const { code: _code, ...rest } = withoutEngineKeys(inputs);
  return { ...rest, app, appliedApp: app };
}

/** A refresh found the app changed on the platform since the last apply. */
function hasDrifted(state: Partial<ScmAppState>): boolean {
  return state.app !== undefined && state.appliedApp !== undefined && !sameValue(state.app, state.appliedApp);
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
): Promise<ScmAppState["app"]> {
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

const inputRules = checkAndDiff(ScmAppInputs, TYPE, { replaceOn: SCM_APP_IDENTITY, updateOn: [] });

export const scmAppProvider: pulumi.dynamic.ResourceProvider<ScmAppInputs, ScmAppState> = {
  ...inputRules,

  async diff(id, olds, news) {
    // `code` is write-once and `connection` is a credential: neither is ever a change. Drift found by
    // refresh is one, so that a drift check sees it; the update records it.
    const result = await inputRules.diff(id, olds, news);
    return hasDrifted(olds) ? { ...result, changes: true } : result;
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
    return { outs: stateOf(news, olds.app) };
  },

  async read(id, props) {
    const { deploymentId, key: requestId } = parseResourceId(id, TYPE, "requestId");
    const state = (props ?? {}) as ScmAppState;
    try {
      const app = await withRotationAdvice(() =>
        clientForResource(state).getScmApp({ deploymentId, requestId }),
      );
      // `appliedApp` stays as applied: a difference from `app` is the drift that diff reports.
      return { id, props: { ...state, deploymentId, requestId, app } };
    } catch (error) {
      // Gone on the platform: an empty id tells the engine to drop it from state on refresh.
      if (isPlatformNotFound(error)) return {};
      throw error;
    }
  },

  async delete() {
    // No delete endpoint: the app stays connected on the platform; the resource leaves the state.
  },
};
