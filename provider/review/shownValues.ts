/**
 * How reports print a resource's field: JSON, with every secret as `[secret]` (a value the engine marks
 * secret, or a field the kind's definition declares secret, such as an SCM app's `code` or a connection
 * holding a token) and the engine's serialized provider left out.
 */
import { isSecretValue } from "../resources/definition";
import { RESOURCE_DEFINITIONS, type ResourceKind } from "../resources/registry";

/** The key of Pulumi's secret signature: `{ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ... }`. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE_VALUE = "1b47061264138c4ac30d75fd1eb44270";

export const SECRET = "[secret]";

/** Fields the engine adds, never shown. */
const HIDDEN_FIELDS = new Set(["__provider"]);

function isEngineSecret(value: unknown): boolean {
  return (
    value === SECRET ||
    (typeof value === "object" &&
      value !== null &&
      (value as Record<string, unknown>)[SECRET_SIGNATURE] === SECRET_SIGNATURE_VALUE)
  );
}

function masked(value: unknown): unknown {
  if (isEngineSecret(value)) return SECRET;
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, masked(inner)]));
  }
  return value;
}

/** A field's value with every secret replaced by `[secret]`. */
export function maskedValue(kind: ResourceKind | undefined, field: string, value: unknown): unknown {
  if (kind !== undefined && value !== undefined && isSecretValue(RESOURCE_DEFINITIONS[kind], field, value)) {
    return SECRET;
  }
  return masked(value);
}

/** A field's value as shown: compact JSON, secrets as `[secret]`, `(none)` when absent. */
export function shownValue(kind: ResourceKind | undefined, field: string, value: unknown): string {
  const shown = maskedValue(kind, field, value);
  return shown === undefined ? "(none)" : shown === SECRET ? SECRET : JSON.stringify(shown);
}

/** The fields a report may show, in name order (`__provider` and other engine fields left out). */
export function shownFields(values: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(values)
    .filter((field) => !HIDDEN_FIELDS.has(field))
    .sort();
}

/** Whether two field values are the same (structurally). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
