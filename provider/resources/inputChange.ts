/**
 * Whether an input changed: the one rule of the providers' diff and of the review tools. An input left
 * out that has a default holds that default; a field with its own comparison (a connection's source) uses
 * it; any other is compared structurally.
 */
import type { InputField } from "./definition";

/** Whether `old` and `next` values of the input `field` differ. */
export function inputChanged(field: InputField, old: unknown, next: unknown): boolean {
  // A state or a program without a defaulted input holds its default all the same.
  if (field.default !== undefined) [old, next] = [old ?? field.default, next ?? field.default];
  return field.differs ? field.differs(old, next) : !sameValue(old, next);
}

/** Structural equality that ignores key order and treats a missing field like `undefined`. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .filter(([, inner]) => inner !== undefined)
              .sort(([x], [y]) => x.localeCompare(y)),
          )
        : v,
    ) ?? "undefined"
  );
}
