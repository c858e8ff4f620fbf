/**
 * `codesec.ScmApp`: operation 3 completes the app request with its one-time code; operation 4 reads the
 * app back, so refresh finds drift and `import` adopts an app that is already connected.
 */
import type * as pulumi from "@pulumi/pulumi";
import { CodeSecApiError } from "../../sdk";
import { SCM_APP_IDENTITY, ScmAppInputs, type ScmAppState } from "../shapes/scmApp";
import { diffInputs } from "./diffing";
import { checkInputs, withoutEngineKeys } from "./inputValidation";
import { formatResourceId, parseResourceId } from "./resourceIds";
import { clientForResource } from "./runtimeCredentials";

const TYPE = "codesec:ScmApp";

/** The code is used once, by create; it is not kept in the outputs. */
function stateOf(inputs: ScmAppInputs, app: ScmAppState["app"]): ScmAppState {
  const { code: _code, ...rest } = withoutEngineKeys(inputs);
  return { ...rest, app };
}

export const scmAppProvider: pulumi.dynamic.ResourceProvider<ScmAppInputs, ScmAppState> = {
  async check(_olds, news) {
    return checkInputs(ScmAppInputs, news, TYPE);
  },

  async diff(_id, olds, news) {
    // `code` is write-once and `connection` is a credential: neither is ever a change.
    return diffInputs(olds, withoutEngineKeys(news), { replaceOn: SCM_APP_IDENTITY, updateOn: [] });
  },

  async create(inputs) {
    if (!inputs.code) {
      throw new Error(
        `${TYPE}: code is required to complete SCM app request "${inputs.requestId}". To adopt an app that ` +
          `is already connected, add the resource option import: "${inputs.deploymentId}/${inputs.requestId}".`,
      );
    }
    const app = await clientForResource(inputs).completeScmAppRequest({ requestId: inputs.requestId, code: inputs.code });
    return { id: formatResourceId(inputs.deploymentId, inputs.requestId), outs: stateOf(inputs, app) };
  },

  async update(_id, olds, news) {
    // diff reports no in-place changes, so this only records new credentials or code in state.
    return { outs: stateOf(news, olds.app) };
  },

  async read(id, props) {
    const { deploymentId, key: requestId } = parseResourceId(id, TYPE, "requestId");
    const state = withoutEngineKeys((props ?? {}) as Partial<ScmAppState>);
    try {
      const app = await clientForResource(state).getScmApp({ deploymentId, requestId });
      const inputs: ScmAppInputs = { deploymentId, requestId, ...(state.connection ? { connection: state.connection } : {}) };
      // The SDK types `inputs` like the outputs; the engine takes any property bag here.
      return { id, props: { ...state, deploymentId, requestId, app }, inputs: inputs as ScmAppState };
    } catch (error) {
      // Gone on the platform: an empty id tells the engine to drop it from state on refresh.
      if (error instanceof CodeSecApiError && error.status === 404 && state.app !== undefined) return {};
      throw error;
    }
  },

  async delete() {
    // No delete endpoint: the app stays connected on the platform; the resource leaves the state.
  },
};
