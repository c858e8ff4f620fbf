/**
 * `diff` for every resource: identity fields replace, mutable fields update, and nothing else
 * (credentials, outputs, write-once secrets) ever shows as a change.
 */
import type * as pulumi from "@pulumi/pulumi";
import { containsUnknown } from "./inputValidation";

export interface DiffRules {
  /** A change to one of these replaces the resource. */
  readonly replaceOn: readonly string[];
  /** A change to one of these updates it in place. */
  readonly updateOn: readonly string[];
}

export function diffInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: DiffRules,
): pulumi.dynamic.DiffResult {
  const changed = (key: string) => containsUnknown(news[key]) || !sameValue(olds[key], news[key]);
  const replaces = rules.replaceOn.filter(changed);
  const updates = rules.updateOn.filter(changed);
  const stables = rules.replaceOn.filter((key) => !replaces.includes(key));
  return { changes: replaces.length + updates.length > 0, replaces, stables };
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
