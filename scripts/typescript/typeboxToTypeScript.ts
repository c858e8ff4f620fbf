/**
 * TypeScript type text for a TypeBox schema, with TSDoc on every object property that has a description,
 * as Pulumi's generated SDKs write them: `input` types wrap every value in `pulumi.Input<>` (nested
 * objects and arrays too), `plain` types are the values as outputs carry them. Enumerations the
 * package names (OrgRole) are written by name, as `string | OrgRole` for inputs (a value read from stack
 * config compiles; `check` refuses one outside the enumeration).
 */
import { Kind, KindGuard, type TSchema } from "@sinclair/typebox";

/** Named enumerations: their TypeScript name and values. */
export type NamedEnums = Readonly<Record<string, readonly string[]>>;

export type TypeMode = "input" | "plain";

export interface PrintOptions {
  readonly mode: TypeMode;
  readonly enums: NamedEnums;
  /** Indentation of the enclosing line. */
  readonly indent: string;
}

function kindOf(schema: TSchema): string {
  const kind: unknown = schema[Kind];
  return typeof kind === "string" ? kind : "";
}

export function isOptional(schema: TSchema): boolean {
  return KindGuard.IsOptional(schema);
}

/** The name of the enumeration whose values are exactly the schema's literals, if the package names one. */
function enumName(schema: TSchema, enums: NamedEnums): string | undefined {
  if (kindOf(schema) !== "Union") return undefined;
  const values = (schema.anyOf as TSchema[]).map((option) => option.const as unknown);
  if (!values.every((value) => typeof value === "string")) return undefined;
  const sorted = [...values].sort().join("|");
  return Object.entries(enums).find(([, members]) => [...members].sort().join("|") === sorted)?.[0];
}

/** The type of a value (no `pulumi.Input` around it at this level). */
function valueType(schema: TSchema, options: PrintOptions): string {
  const input = options.mode === "input";
  const named = enumName(schema, options.enums);
  if (named !== undefined) return input ? `string | ${named}` : named;
  switch (kindOf(schema)) {
    case "String":
      return "string";
    case "Number":
    case "Integer":
      return "number";
    case "Boolean":
      return "boolean";
    case "Literal":
      return JSON.stringify(schema.const);
    case "Unknown":
    case "Any":
      return "unknown";
    case "Array": {
      const item = typeOf(schema.items as TSchema, options);
      return `${item.includes(" ") ? `(${item})` : item}[]`;
    }
    case "Record": {
      const value = Object.values(schema.patternProperties as Record<string, TSchema>)[0];
      return `Record<string, ${typeOf(value, options)}>`;
    }
    case "Object":
      return objectType(schema, options);
    case "Union":
      return (schema.anyOf as TSchema[]).map((option) => valueType(option, options)).join(" | ");
    default:
      throw new Error(`no TypeScript type for a schema of kind "${kindOf(schema)}"`);
  }
}

/** The type of a property or item: wrapped in `pulumi.Input` for inputs. */
export function typeOf(schema: TSchema, options: PrintOptions): string {
  const value = valueType(schema, options);
  return options.mode === "input" ? `pulumi.Input<${value}>` : value;
}

/** An object type literal, one property per line, each with its description as TSDoc. */
function objectType(schema: TSchema, options: PrintOptions): string {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, TSchema>);
  if (properties.length === 0) return "Record<string, never>";
  const inner = `${options.indent}    `;
  const lines = properties.flatMap(([name, property]) => [
    ...tsDoc(property.description, inner),
    `${inner}${name}${isOptional(property) ? "?" : ""}: ${typeOf(property, { ...options, indent: inner })};`,
  ]);
  return `{\n${lines.join("\n")}\n${options.indent}}`;
}

/** TSDoc lines for a description (none when there is none), at `indent`, wrapped at 110 columns. */
export function tsDoc(description: string | undefined, indent: string, extra: string[] = []): string[] {
  const paragraphs = [...(description === undefined || description === "" ? [] : [description]), ...extra];
  if (paragraphs.length === 0) return [];
  const body = paragraphs.flatMap((paragraph, i) => [
    ...(i > 0 ? [""] : []),
    ...wrap(paragraph, 108 - indent.length),
  ]);
  if (body.length === 1 && !body[0].includes("\n")) return [`${indent}/** ${escapeDoc(body[0])} */`];
  return [
    `${indent}/**`,
    ...body.map((line) => `${indent} *${line === "" ? "" : ` ${escapeDoc(line)}`}`),
    `${indent} */`,
  ];
}

function escapeDoc(text: string): string {
  return text.replaceAll("*/", "*\\/");
}

/** Words to lines of at most `width` characters; a text with line breaks of its own is kept as it is. */
export function wrap(text: string, width: number): string[] {
  if (text.includes("\n")) return text.split("\n");
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}
