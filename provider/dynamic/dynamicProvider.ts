/**
 * A kind's dynamic provider, derived from its definition: the object the engine calls for
 * `pulumi-nodejs:dynamic/codesec:<Kind>` resources (through the kind's entry module, see engineEntry.ts).
 * It only translates: the engine's `__provider` key, a lookup by id, and the dynamic provider's result
 * shapes; every step is the kinds' generic lifecycle (provider/resources/lifecycle.ts), which the native
 * plugin runs too.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceDefinition } from "../resources/definition";
import { ResourceInitError } from "../errors";
import {
  checkResource,
  createResource,
  deleteResource,
  diffResource,
  readResource,
  updateResource,
} from "../resources/lifecycle";
import { engineKeysOf, holdsEngineKeys, withoutEngineKeys } from "./engineKeys";
import { isLookup } from "./lookup";
import { dynamicContext } from "./runtimeCredentials";

type Props = Record<string, unknown>;

/** Keeps the engine's key in what a failed create or update records, so the engine can load the provider again. */
async function keepingEngineKeys<T>(props: Props, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ResourceInitError) throw error.withProperties(engineKeysOf(props));
    throw error;
  }
}

export function dynamicProvider(
  definition: ResourceDefinition,
): pulumi.dynamic.ResourceProvider<Props, Props> {
  return {
    async check(_olds, news) {
      return checkResource(definition, withoutEngineKeys(news), dynamicContext());
    },

    async diff(id, olds, news) {
      const plan = diffResource(
        definition,
        id,
        withoutEngineKeys(olds),
        withoutEngineKeys(news),
        dynamicContext(),
      );
      // A state without the engine's `__provider` is one the native provider wrote, moved back to the dynamic
      // resources by an alias to its native type: one update, with no call, records `__provider` in the
      // outputs, without which the engine could not load this provider to refresh or delete it.
      const fromNativeProvider = holdsEngineKeys(news) && !holdsEngineKeys(olds);
      return { changes: plan.changes || fromNativeProvider, replaces: plan.replaces, stables: plan.stables };
    },

    async create(inputs) {
      const { id, state } = await keepingEngineKeys(inputs, () =>
        createResource(definition, withoutEngineKeys(inputs), dynamicContext()),
      );
      return { id, outs: state };
    },

    async update(id, olds, news) {
      const state = await keepingEngineKeys(news, () =>
        updateResource(definition, id, withoutEngineKeys(olds), withoutEngineKeys(news), dynamicContext()),
      );
      return { outs: state };
    },

    async read(id, props) {
      // A lookup by id (`X.get`) carries no state: the engine passes every declared property unset.
      const state = isLookup(props) ? undefined : withoutEngineKeys(props!);
      const found = await readResource(definition, id, state, dynamicContext());
      // Gone from the platform: an empty id tells the engine to drop it from state on refresh.
      if ("gone" in found) return {};
      return found.inputs === undefined
        ? { id, props: found.state }
        : { id, props: found.state, inputs: found.inputs };
    },

    async delete(id, props) {
      await deleteResource(definition, id, withoutEngineKeys(props), dynamicContext());
    },
  };
}
