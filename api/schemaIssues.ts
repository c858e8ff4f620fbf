/**
 * The one place where a value that does not fit a schema becomes words: the dotted path of the field
 * (`scan.findingsCounts.total`, `filters.ids[0]`), what the schema expects there, and what was found.
 * The client's argument checks, the provider's `check` and the client's response checks all use it, so
 * a bad value reads the same at preview and at apply; the emulator words its request validation with it
 * too (`requestPartSubject`), so the client and the emulator say the same thing of the same bad value.
 * Schemas are compiled once and cached (api/schemaChecks.ts).
 */
import type { TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import { escapedText, quotedText } from "./messageText";
import { checkerFor } from "./schemaChecks";

export { checkerFor, registerFormat, type SchemaChecker } from "./schemaChecks";

export interface SchemaIssue {
  /** Dotted path from the checked value's root; `""` when the root itself is wrong. */
  readonly path: string;
  /** What the schema wants, e.g. `integer`, `a numeric id (digits only)`. */
  readonly expected: string;
  /** The offending value (undefined when missing). */
  readonly value: unknown;
  /** `tooDeep`: an object or array nested deeper than the bound (api/nestingDepth.ts). */
  readonly kind: "missing" | "notAllowed" | "invalid" | "tooDeep";
  /** For `notAllowed`: the fields the enclosing object accepts. */
  readonly allowed?: readonly string[];
  /** For `invalid`: the JSON type the schema wants, when the value has another one. */
  readonly wrongType?: string;
  /** For `invalid`: which rule the value breaks, e.g. `must not contain "/"`, when the schema says. */
  readonly rule?: string;
  /** The value is a secret (its schema is marked with `secretValue`): messages never show it. */
  readonly secret?: true;
  /** For `tooDeep`: the nesting level of the value at `path` (the checked value is level 1). */
  readonly depth?: number;
}

/** Says which of a schema's rules a value of the right type breaks (`must not contain "/"`), if any. */
export type RuleExplainer = (value: unknown) => string | undefined;

const explainers = new WeakMap<TSchema, RuleExplainer>();

/** Registers how to explain `schema`'s failures more precisely than its description does. */
export function explainFailuresOf<S extends TSchema>(schema: S, explain: RuleExplainer): S {
  explainers.set(schema, explain);
  return schema;
}

/**
 * Why a field exists, for the reference docs, as its JSON Schema `description`. A field's schema is often a
 * shared building block (`NumericId`) whose own description says what a value must look like, and messages
 * quote that: the copy keeps it under `ValueWording` (a symbol, so Ajv and JSON never see it) and keeps the
 * block's rule explainer, so `check` and the client word a bad value exactly as before. A secret mark
 * (`secretValue`) is a symbol property too, so the copy stays secret.
 */
export function described<S extends TSchema>(schema: S, description: string): S {
  const copy = { ...schema, description, [ValueWording]: describeSchema(schema) } as S;
  const explain = explainers.get(schema);
  if (explain) explainers.set(copy, explain);
  return copy;
}

/** Where {@link described} keeps what the field's value must look like. */
const ValueWording = Symbol.for("pulumi-codesec.valueWording");

/**
 * Where {@link secretValue} marks a schema. A symbol property (not a side table) because TypeBox's
 * `Type.Optional` and {@link described} copy a schema with its symbol properties: the mark survives them.
 */
const SecretValue = Symbol.for("pulumi-codesec.secretValue");

/**
 * Marks `schema` as holding a secret (a one-time code, a token): whoever checks a value against it,
 * a message about that value says only its type, never the value.
 */
export function secretValue<S extends TSchema>(schema: S): S {
  return { ...schema, [SecretValue]: true };
}

/** Whether a schema (or the copy of one) is marked with {@link secretValue}. */
export function isSecretSchema(schema: TSchema): boolean {
  return (schema as { [SecretValue]?: boolean })[SecretValue] === true;
}

/**
 * The first problem of `value` against `schema`, or undefined when it conforms. An unknown field comes
 * before a missing one: `{ scanID }` most likely misspells `scanId`, and saying so explains both.
 */
export function firstSchemaIssue(schema: TSchema, value: unknown): SchemaIssue | undefined {
  const checker = checkerFor(schema);
  if (checker.Check(value)) return undefined;
  let first: SchemaIssue | undefined;
  for (const error of checker.Errors(value)) {
    const issue = issueOf(error, value);
    if (issue.kind === "notAllowed") return issue;
    first ??= issue;
    if (issue.kind !== "missing") break;
  }
  return first ?? { path: "", expected: describeSchema(schema), value, kind: "invalid" };
}

/** Every problem of `value`, at most one per field (the first found there), in the order found. */
export function schemaIssues(schema: TSchema, value: unknown): SchemaIssue[] {
  const checker = checkerFor(schema);
  if (checker.Check(value)) return [];
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const error of checker.Errors(value)) {
    const issue = issueOf(error, value);
    if (seen.has(issue.path)) continue;
    seen.add(issue.path);
    issues.push(issue);
  }
  return issues;
}

function issueOf(error: ValueError, root: unknown): SchemaIssue {
  // Loaded by now: the errors come from TypeBox's error iterator (loaded only when a check fails).
  const { ValueErrorType } = require("@sinclair/typebox/errors") as typeof import("@sinclair/typebox/errors");
  const path = dottedPath(error.path, root);
  // A key present with the value undefined is as good as missing (untyped callers pass `{ id: undefined }`).
  const missing = error.type === ValueErrorType.ObjectRequiredProperty || error.value === undefined;
  switch (missing ? ValueErrorType.ObjectRequiredProperty : error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return { path, expected: describeSchema(error.schema), value: undefined, kind: "missing" };
    case ValueErrorType.ObjectAdditionalProperties: {
      const allowed = Object.keys((error.schema.properties as Record<string, unknown> | undefined) ?? {});
      return { path, expected: "", value: error.value, kind: "notAllowed", allowed };
    }
    default: {
      const type: unknown = error.schema.type;
      const wrongType =
        typeof type === "string" && error.value !== undefined && !hasJsonType(error.value, type)
          ? type
          : undefined;
      const rule = wrongType === undefined ? explainers.get(error.schema)?.(error.value) : undefined;
      return {
        path,
        expected: describeSchema(error.schema),
        value: error.value,
        kind: "invalid",
        ...(wrongType === undefined ? {} : { wrongType }),
        ...(rule === undefined ? {} : { rule }),
        ...(isSecretSchema(error.schema) ? { secret: true as const } : {}),
      };
    }
  }
}

/** Who is being checked, for messages: `provisionWorkflows` + `argument`, `codesec:UserRole` + `input`. */
export interface IssueSubject {
  readonly name: string;
  readonly noun: "argument" | "input" | "option" | "field" | "path parameter" | "query parameter";
  /** Fields whose values must never appear in a message (one-time codes, tokens). */
  readonly secretFields?: readonly string[];
  /** Prefix for paths, e.g. `connection` when checking a connection object on its own. */
  readonly pathPrefix?: string;
  /** Name a field by its noun too: `path parameter scanId` rather than `scanId`. */
  readonly nounBeforePath?: boolean;
}

/** The parts of an HTTP request a server validates, as Fastify names them. */
export type RequestPart = "body" | "params" | "querystring";

/**
 * The subject of one part of a request to `operation` (a server checking what it received): fields read
 * `body.filters.ids[3]`, `path parameter scanId`, `query parameter userId`.
 */
export function requestPartSubject(part: RequestPart, operation: string): IssueSubject {
  switch (part) {
    case "body":
      return { name: operation, noun: "field", pathPrefix: "body" };
    case "params":
      return { name: operation, noun: "path parameter", nounBeforePath: true };
    case "querystring":
      return { name: operation, noun: "query parameter", nounBeforePath: true };
  }
}

/** The issue as one sentence naming the field, e.g. `filters.ids[0] must be a numeric id ..., got "x"`. */
export function issueMessage(issue: SchemaIssue, subject: IssueSubject): string {
  const path = joinPath(subject.pathPrefix, issue.path);
  const label =
    path === ""
      ? `the ${subject.noun}s of ${subject.name}`
      : subject.nounBeforePath === true
        ? `${subject.noun} ${path}`
        : path;
  if (issue.kind === "missing") return `${label} is required (${issue.expected})`;
  if (issue.kind === "tooDeep") {
    return `${label} must be ${issue.expected}, got ${articleFor(jsonTypeOf(issue.value))} at level ${issue.depth}`;
  }
  if (issue.kind === "notAllowed") {
    const { parent, key } = splitPath(path);
    const allowed = issue.allowed ?? [];
    const guess = closest(key, allowed);
    const hint = guess === undefined ? "" : ` (did you mean ${quotedText(guess)}?)`;
    const owner = parent === "" ? `${articleFor(subject.noun)} of ${subject.name}` : `a field of ${parent}`;
    const list = allowed.length > 0 ? allowed.join(", ") : "none";
    return `${key} is not ${owner}${hint}; ${parent === "" ? `its ${subject.noun}s are` : "its fields are"} ${list}`;
  }
  const secret = issue.secret === true || isSecretPath(path, subject.secretFields);
  const found = secret ? articleFor(jsonTypeOf(issue.value)) : describeFound(issue.value);
  if (issue.wrongType !== undefined) {
    // Say the type first: "must be a numeric id, got 502" reads as a riddle when 502 is a number.
    const type = articleFor(issue.wrongType);
    const detail = issue.expected.startsWith(type) ? issue.expected : `${type} (${issue.expected})`;
    return `${label} must be ${detail}, got ${found}`;
  }
  if (issue.rule !== undefined) return `${label} ${issue.rule} (${issue.expected}), got ${found}`;
  return `${label} must be ${issue.expected}, got ${found}`;
}

/** A JSON pointer (`/orgs/0/id`) as a dotted path (`orgs[0].id`), indexing where the value is an array. */
export function dottedPath(pointer: string, root: unknown): string {
  if (pointer === "") return "";
  const keys: (string | number)[] = [];
  let current: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current) && /^\d+$/.test(key)) {
      keys.push(Number(key));
      current = current[Number(key)];
    } else {
      keys.push(key);
      current =
        current !== null && typeof current === "object"
          ? (current as Record<string, unknown>)[key]
          : undefined;
    }
  }
  return pathOfKeys(keys);
}

/**
 * The keys from a value's root to one of its parts as the dotted path every message writes
 * (`orgs[0].id`): an array index in brackets, a field name after a dot; `""` for the root.
 */
export function pathOfKeys(keys: readonly (string | number)[]): string {
  let path = "";
  for (const key of keys) {
    if (typeof key === "number") path += `[${key}]`;
    else path += path === "" ? escapedText(key) : `.${escapedText(key)}`;
  }
  return path;
}

/** A short English description of what a schema accepts. */
export function describeSchema(schema: TSchema): string {
  const wording = (schema as { [ValueWording]?: unknown })[ValueWording];
  if (typeof wording === "string") return wording;
  if (typeof schema.description === "string") return schema.description;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(describeSchema).join(" or ");
  switch (schema.type) {
    case "string":
      return describeString(schema);
    case "integer":
    case "number":
      return describeRange(schema.type as string, schema.minimum, schema.maximum);
    case "boolean":
      return "a boolean";
    case "array":
      return typeof schema.maxItems === "number"
        ? `an array of at most ${schema.maxItems} items`
        : "an array";
    case "object":
      return "an object";
    case "null":
      return "null";
    default:
      return "a valid value";
  }
}

function describeString(schema: TSchema): string {
  if (typeof schema.format === "string") return `a string (${schema.format})`;
  if (typeof schema.pattern === "string") return `a string matching /${schema.pattern}/`;
  const noun =
    typeof schema.minLength === "number" && schema.minLength > 0 ? "a non-empty string" : "a string";
  return typeof schema.maxLength === "number" ? `${noun} of at most ${schema.maxLength} characters` : noun;
}

function describeRange(type: string, minimum: unknown, maximum: unknown): string {
  const noun = articleFor(type);
  const hasMin = typeof minimum === "number";
  const hasMax = typeof maximum === "number";
  if (hasMin && hasMax) return `${noun} between ${minimum} and ${maximum}`;
  if (hasMin) return `${noun} >= ${minimum}`;
  if (hasMax) return `${noun} <= ${maximum}`;
  return noun;
}

/** Type name of a JSON value as people say it: `null`, `array`, `integer`, `string`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * A value for a message: short, quoted when a string (control characters escaped: api/messageText.ts),
 * typed otherwise.
 * `clean` first redacts text that came from a server (an echoed token must not reach a message).
 */
export function describeFound(
  value: unknown,
  max = 60,
  clean?: (text: string, max: number) => string,
): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const quoted = quotedText(clean === undefined ? value : clean(value, max));
    return quoted.length <= max ? quoted : `${quoted.slice(0, max)}…" (${value.length} characters)`;
  }
  if (typeof value === "number" || typeof value === "boolean") {
    return `${String(value)} (${articleFor(jsonTypeOf(value))})`;
  }
  return articleFor(jsonTypeOf(value));
}

function articleFor(type: string): string {
  if (type === "null" || type === "undefined") return type;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
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
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}

function joinPath(prefix: string | undefined, path: string): string {
  if (prefix === undefined || prefix === "") return path;
  if (path === "") return prefix;
  return path.startsWith("[") ? `${prefix}${path}` : `${prefix}.${path}`;
}

function splitPath(path: string): { parent: string; key: string } {
  const match = /^(.*)\.([^.[\]]+)$/.exec(path);
  return match ? { parent: match[1], key: match[2] } : { parent: "", key: path };
}

function isSecretPath(path: string, secretFields: readonly string[] | undefined): boolean {
  return (secretFields ?? []).some((field) => path === field || path.startsWith(`${field}.`));
}

/** The allowed name a typo most likely meant: edit distance at most 2, or a case-insensitive match. */
function closest(key: string, allowed: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of allowed) {
    const distance = name.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}
