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
  if (
    containsUnknown(news.connection) ||
    connectionSource(olds.connection) !== connectionSource(news.connection)
  ) {
    updates.push("connection");
  }
  const stables = rules.replaceOn.filter((key) => !replaces.includes(key));
  return { changes: replaces.length + updates.length > 0, replaces, stables };
}

/**
 * Which source a resource's connection names, never its credentials: a new token in the same place is
 * no change, but moving from the deprecated object form to a name (or to another name, or to the
 * stack's default) is an update, with no call, so that the state drops the stored token and refresh and
 * destroy follow the new source.
 */
function connectionSource(connection: unknown): string {
  if (connection === undefined || connection === null) return "default";
  return typeof connection === "string" ? `name ${connection}` : "explicit object";
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
