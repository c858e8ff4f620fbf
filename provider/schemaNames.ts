/**
 * The one mapping between the platform's field names (the wire's, which the dynamic package keeps) and the
 * names of the Pulumi schema, which the native plugin speaks and the generated SDKs are made from. The
 * platform names notification rules' fields in snake_case (`config_error`); a schema names every property
 * in camelCase (`configError`), or the SDKs' own casing rules garble them (Go's `Config_error`). Field
 * names already in camelCase map to themselves; keys of a map (a rule's `config`) are data, never renamed.
 */
import type { TObject, TSchema } from "@sinclair/typebox";

/** The schema's name of a platform field: `config_error` -> `configError`; `deploymentId` as it is. */
export function schemaName(wireName: string): string {
  return wireName.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

type Direction = "toSchema" | "toWire";

/** A value of `schema` (a function's result) with its fields named as the Pulumi schema names them. */
export function toSchemaNames(schema: TSchema, value: unknown): unknown {
  return renamed(schema, value, "toSchema");
}

/** A value of `schema`'s schema-named form (a native Invoke's arguments) with the platform's field names. */
export function toWireNames(schema: TSchema, value: unknown): unknown {
  return renamed(schema, value, "toWire");
}

function renamed(schema: TSchema, value: unknown, direction: Direction): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(schema.anyOf)) {
    const wanted = Array.isArray(value) ? "array" : "object";
    const member = (schema.anyOf as TSchema[]).find((option) => option.type === wanted);
    return member === undefined ? value : renamed(member, value, direction);
  }
  if (Array.isArray(value)) {
    return schema.type === "array"
      ? value.map((item) => renamed(schema.items as TSchema, item, direction))
      : value;
  }
  if (schema.type !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (schema.patternProperties !== undefined) {
    const [itemSchema] = Object.values(schema.patternProperties as Record<string, TSchema>);
    return Object.fromEntries(entries.map(([key, item]) => [key, renamed(itemSchema, item, direction)]));
  }
  const properties = (schema as TObject).properties ?? {};
  // Each field as it comes in `value` -> its name going out, and its schema.
  const fields = new Map(
    Object.entries(properties).map(([wire, fieldSchema]) =>
      direction === "toSchema"
        ? [wire, { name: schemaName(wire), schema: fieldSchema }]
        : [schemaName(wire), { name: wire, schema: fieldSchema }],
    ),
  );
  return Object.fromEntries(
    entries.map(([key, item]) => {
      const field = fields.get(key);
      return field === undefined ? [key, item] : [field.name, renamed(field.schema, item, direction)];
    }),
  );
}

const schemaNamed = new WeakMap<TSchema, TSchema>();

/**
 * `schema` with its objects' fields named as the Pulumi schema names them, to check a native Invoke's
 * arguments in the names their caller wrote (a message names `filters.isEnabled`, and the platform's
 * `filters.is_enabled` is refused as an unknown field). The same schema object for the same `schema`, so
 * its compiled check is cached once.
 */
export function withSchemaNames<S extends TSchema>(schema: S): S {
  const known = schemaNamed.get(schema);
  if (known !== undefined) return known as S;
  const result = renamedSchema(schema);
  schemaNamed.set(schema, result);
  return result as S;
}

function renamedSchema(schema: TSchema): TSchema {
  // Spreading keeps TypeBox's symbol keys (Kind, Optional) and this package's (descriptions, secret marks).
  // A schema with nothing to rename stays the same object: checks and explanations are keyed by it.
  if (Array.isArray(schema.anyOf)) {
    const members = schema.anyOf as TSchema[];
    const anyOf = members.map(renamedSchema);
    return anyOf.every((member, index) => member === members[index]) ? schema : { ...schema, anyOf };
  }
  if (schema.type === "array") {
    const items = renamedSchema(schema.items as TSchema);
    return items === schema.items ? schema : { ...schema, items };
  }
  if (schema.type !== "object" || schema.patternProperties !== undefined || schema.properties === undefined) {
    return schema;
  }
  const properties = Object.entries((schema as TObject).properties).map(
    ([field, fieldSchema]) => [field, fieldSchema, renamedSchema(fieldSchema)] as const,
  );
  const same = properties.every(([field, before, after]) => schemaName(field) === field && before === after);
  if (same) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(properties.map(([field, , after]) => [schemaName(field), after])),
    ...(Array.isArray(schema.required) ? { required: (schema.required as string[]).map(schemaName) } : {}),
  };
}
