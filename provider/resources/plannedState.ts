/**
 * What a create or an update will record, as a preview shows it, computed without calling the platform:
 * the inputs as declared, the platform the resource belongs to, and every other output unknown (or, for
 * an update that neither applies the resource again nor records a change the state asks for, as
 * recorded). The native plugin answers a preview's Create and Update with it, so a preview never writes;
 * the engine never asks the dynamic provider at preview.
 */
import { outputNames, type ResourceDefinition } from "./definition";
import { connectionNotKnown, planUpdate, UNKNOWN_VALUE } from "./lifecycle";
import { platformOfResource, type ProviderContext } from "../providerContext";

type Props = Record<string, unknown>;

/** The state a create of `inputs` will record. */
export function plannedCreate(definition: ResourceDefinition, inputs: Props, ctx: ProviderContext): Props {
  const state: Props = { ...inputs };
  for (const name of outputNames(definition)) state[name] = UNKNOWN_VALUE;
  // A connection still unknown at preview resolves at apply.
  state.platform = connectionNotKnown(ctx, inputs) ? UNKNOWN_VALUE : platformOfResource(ctx, inputs);
  return state;
}

/** The state an update from `olds` (the state) to `news` (the inputs) will record. */
export function plannedUpdate(
  definition: ResourceDefinition,
  id: string,
  olds: Props,
  news: Props,
  ctx: ProviderContext,
): Props {
  const state: Props = { ...news };
  const plan = connectionNotKnown(ctx, news) ? undefined : planUpdate(definition, id, olds, news, ctx);
  const recordedStays =
    plan !== undefined &&
    !plan.reapply &&
    (definition.implementation.pendingChanges?.(olds, news) ?? []).length === 0;
  for (const name of outputNames(definition)) {
    state[name] = recordedStays && olds[name] !== undefined ? olds[name] : UNKNOWN_VALUE;
  }
  state.platform = plan === undefined ? UNKNOWN_VALUE : plan.ownership.platform;
  return state;
}
