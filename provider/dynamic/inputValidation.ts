/**
 * `check` for every resource: validates inputs against the resource's shape and turns each problem into
 * a `CheckFailure` that names the property, so `pulumi preview` stops before any API call.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TSchema } from "@sinclair/typebox";
import { Value, ValueErrorType, type ValueError } from "@sinclair/typebox/value";

/** The engine's placeholder for a value not known until apply (an output of another resource). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Properties whose values must never be echoed in a message. */
const SECRET_PROPERTIES = new Set(["connection", "code"]);

/** Drops the engine's reserved keys (`__provider`) before validation and comparison. */
export function withoutEngineKeys<T extends Record<string, unknown>>(props: T): T {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([key]) => !key.startsWith("__"))) as T;
}

/**
 * Only the engine's reserved keys of a property bag. Properties recorded for a failed create or update
 * must keep `__provider`, or the engine could not load the provider for that resource again.
 */
export function engineKeysOf(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([key]) => key.startsWith("__")));
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Validates `news` against `shape`; values still unknown at preview time are accepted as they are. */
export function checkInputs(
  shape: TSchema,
  news: Record<string, unknown>,
  resourceType: string,
): pulumi.dynamic.CheckResult {
  const inputs = withoutEngineKeys(news);
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(shape, inputs)) {
    const property = propertyName(error.path);
    if (seen.has(property) || containsUnknown(error.value) || isUnderUnknown(inputs, error.path)) continue;
    seen.add(property);
    failures.push({ property, reason: describe(error, property, resourceType) });
  }
  return failures.length > 0 ? { inputs, failures } : { inputs };
}

function propertyName(path: string): string {
  return path.replace(/^\//, "").split("/").join(".") || "(inputs)";
}

function isUnderUnknown(root: unknown, path: string): boolean {
  let node = root;
  for (const segment of path.split("/").filter(Boolean)) {
    if (node === UNKNOWN_VALUE) return true;
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return node === UNKNOWN_VALUE;
}

function describe(error: ValueError, property: string, resourceType: string): string {
  const secret = SECRET_PROPERTIES.has(property.split(".")[0]);
  const got = secret ? "" : `, got ${preview(error.value)}`;
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `${property} is required`;
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const allowed = Object.keys((error.schema as { properties?: object }).properties ?? {}).join(", ");
    return `${property} is not an input of ${resourceType} (allowed: ${allowed})`;
  }
  const schema = error.schema as { description?: string; type?: string };
  // A value of the wrong JSON type (a number where an id string belongs, often from
  // `pulumi config set --path`): say the type first, or "must be an id, got 502" reads as a riddle.
  const wrongType = typeof schema.type === "string" && !hasJsonType(error.value, schema.type);
  if (wrongType && error.value !== undefined) {
    const article = /^[aeiou]/.test(schema.type!) ? "an" : "a";
    const detail = schema.description ? ` (${schema.description})` : "";
    return `${property} must be ${article} ${schema.type}${detail}${got} (${jsonTypeOf(error.value)})`;
  }
  if (schema.description) return `${property} must be ${schema.description}${got}`;
  return `${property}: ${error.message.toLowerCase()}${got}`;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}

function hasJsonType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}

function preview(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
