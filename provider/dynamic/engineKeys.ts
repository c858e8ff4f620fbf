/** The engine's own key in a dynamic resource's properties, kept apart from the program's inputs. */

/**
 * The key the engine adds to a dynamic resource's properties: its serialized provider. It is the only
 * one: any other key, `__role` included, is the program's and is checked like every input.
 */
const ENGINE_KEY = "__provider";

/** Drops the engine's reserved key (`__provider`) before validation and comparison. */
export function withoutEngineKeys<T extends Record<string, unknown>>(props: T): T {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([key]) => key !== ENGINE_KEY)) as T;
}

/**
 * Only the engine's reserved key of a property bag. Properties recorded for a failed create or update
 * must keep `__provider`, or the engine could not load the provider for that resource again.
 */
export function engineKeysOf(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([key]) => key === ENGINE_KEY));
}

/**
 * Whether a property bag holds the dynamic provider's key: a state the dynamic provider wrote, which the
 * native plugin receives once through the schema's alias and moves to its own form (no `__provider`).
 */
export function holdsEngineKeys(props: Record<string, unknown>): boolean {
  return Object.hasOwn(props ?? {}, ENGINE_KEY);
}
