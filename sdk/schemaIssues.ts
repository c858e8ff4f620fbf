/**
 * Turns TypeBox's first validation error into something a person can act on: the dotted path of the
 * field (`scan.findingsCounts.total`, `orgs[0].features`), what the schema expects there, and what
 * was found. Shared by argument checks and response validation so both read alike.
 */
import { type TSchema } from "@sinclair/typebox";
import { Value, ValueErrorType } from "@sinclair/typebox/value";

export interface SchemaIssue {
  /** Dotted path from the checked value's root; `""` when the root itself is wrong. */
  readonly path: string;
  /** What the schema wants, e.g. `integer`, `a numeric id (digits only)`. */
  readonly expected: string;
  /** The offending value (undefined when missing). */
  readonly value: unknown;
  readonly kind: "missing" | "notAllowed" | "invalid";
}

/** The first problem of `value` against `schema`, or undefined when it conforms. */
export function firstSchemaIssue(schema: TSchema, value: unknown): SchemaIssue | undefined {
  if (Value.Check(schema, value)) return undefined;
  const error = Value.Errors(schema, value).First();
  if (error === undefined) return { path: "", expected: describeSchema(schema), value, kind: "invalid" };
  const path = dottedPath(error.path, value);
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return { path, expected: describeSchema(error.schema), value: undefined, kind: "missing" };
    case ValueErrorType.ObjectAdditionalProperties: {
      const allowed = Object.keys((error.schema.properties as Record<string, unknown> | undefined) ?? {});
      const expected = allowed.length > 0 ? `one of the fields ${allowed.join(", ")}` : "no fields";
      return { path, expected, value: error.value, kind: "notAllowed" };
    }
    default:
      return { path, expected: describeSchema(error.schema), value: error.value, kind: "invalid" };
  }
}

/** A JSON pointer (`/orgs/0/id`) as a dotted path (`orgs[0].id`), indexing where the value is an array. */
export function dottedPath(pointer: string, root: unknown): string {
  if (pointer === "") return "";
  let out = "";
  let current: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current) && /^\d+$/.test(key)) {
      out += `[${key}]`;
      current = current[Number(key)];
    } else {
      out += out === "" ? key : `.${key}`;
      current =
        current !== null && typeof current === "object"
          ? (current as Record<string, unknown>)[key]
          : undefined;
    }
  }
  return out;
}

/** A short English description of what a schema accepts. */
export function describeSchema(schema: TSchema): string {
  if (typeof schema.description === "string") return schema.description;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(describeSchema).join(" or ");
  switch (schema.type) {
    case "string":
      if (typeof schema.format === "string") return `string (${schema.format})`;
      if (typeof schema.pattern === "string") return `string matching /${schema.pattern}/`;
      return typeof schema.minLength === "number" && schema.minLength > 0 ? "non-empty string" : "string";
    case "integer":
    case "number":
      return describeRange(schema.type, schema.minimum, schema.maximum);
    case "boolean":
      return "boolean";
    case "array":
      return "array";
    case "object":
      return "object";
    case "null":
      return "null";
    default:
      return "a valid value";
  }
}

function describeRange(type: string, minimum: unknown, maximum: unknown): string {
  const hasMin = typeof minimum === "number";
  const hasMax = typeof maximum === "number";
  if (hasMin && hasMax) return `${type} between ${minimum} and ${maximum}`;
  if (hasMin) return `${type} >= ${minimum}`;
  if (hasMax) return `${type} <= ${maximum}`;
  return type;
}

/** Type name of a JSON value as people say it: `null`, `array`, `integer`, `string`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
