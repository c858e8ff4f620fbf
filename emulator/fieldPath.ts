/**
 * Dotted field paths (`scan.status`, `app.slug`, `notification_rules.0.channel`) into JSON bodies and
 * into the response schemas that shape them, for the `omitField` fault. A numeric segment indexes an
 * array; the last segment always names an object's field.
 */
import type { TSchema } from "@sinclair/typebox";

const INDEX = /^\d+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function fieldPathSegments(path: string): string[] {
  return path.split(".");
}

/** Removes the field at `segments` from `body` (in place); false when the body has no such field. */
export function removeField(body: unknown, segments: readonly string[]): boolean {
  let node: unknown = body;
  for (const segment of segments.slice(0, -1)) {
    if (Array.isArray(node)) {
      if (!INDEX.test(segment)) return false;
      node = node[Number(segment)];
    } else if (isRecord(node) && Object.hasOwn(node, segment)) {
      node = node[segment];
    } else {
      return false;
    }
  }
  const last = segments[segments.length - 1];
  if (last === undefined || !isRecord(node) || !Object.hasOwn(node, last)) return false;
  delete node[last];
  return true;
}

/**
 * Whether an answer serialized through `schema` can hold a field at `segments`. Serialization keeps only
 * what the schema declares, so a field the schema does not name can never be in the body.
 */
export function schemaAllowsField(schema: TSchema, segments: readonly string[]): boolean {
  const [segment, ...rest] = segments;
  if (segment === undefined) return true;
  const branches = [schema.anyOf, schema.oneOf, schema.allOf].flat().filter(Boolean) as TSchema[];
  if (branches.length > 0) return branches.some((branch) => schemaAllowsField(branch, segments));
  if (schema.type === undefined) return true; // an unconstrained value (Unknown/Any) may hold anything
  if (schema.type === "array") {
    return INDEX.test(segment) && rest.length > 0 && schemaAllowsField(schema.items as TSchema, rest);
  }
  if (schema.type !== "object") return false;
  const property = (schema.properties as Record<string, TSchema> | undefined)?.[segment];
  if (property) return schemaAllowsField(property, rest);
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, TSchema>);
  const byPattern = patterns.find(([pattern]) => new RegExp(pattern).test(segment));
  if (byPattern) return schemaAllowsField(byPattern[1], rest);
  if (isRecord(schema.additionalProperties))
    return schemaAllowsField(schema.additionalProperties as TSchema, rest);
  return false;
}
