/**
 * Compiled checks of values against schemas, cheap to load. A check is TypeBox's compiled code for the
 * schema (`TypeCompiler.Code`): for the API's own schemas that code is generated at build time
 * (api/generated/compiledChecks.ts, by scripts/compiled-checks.ts; lint fails when it is stale), so
 * neither loading the API nor checking a valid value loads any of TypeBox (its index alone is about 200
 * modules). Other schemas (the provider's shapes, the emulator's) are compiled on first use, loading
 * TypeBox's compiler then; TypeBox's error iterator is loaded only to explain a value that fails.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { ValueErrorIterator } from "@sinclair/typebox/errors";
import { createHash } from "node:crypto";
import { COMPILED_CHECKS } from "./generated/compiledChecks";
import { Kind, OptionalKind } from "./typeBuilder";

/** A schema's compiled check, and the explanation of a failure (TypeBox's `TypeCheck`, in the part used). */
export interface SchemaChecker<S extends TSchema> {
  /** Whether `value` conforms (fast: compiled once). */
  Check(value: unknown): value is Static<S>;
  /** Every problem of `value`, as TypeBox's error iterator reports them (loads it on first use). */
  Errors(value: unknown): ValueErrorIterator;
}

type FormatCheck = (value: string) => boolean;
const formats = new Map<string, FormatCheck>();

/**
 * Registers a string format (`date-time`) for every check; TypeBox's own registry gets it too once
 * TypeBox is loaded, so its error iterator agrees with the compiled checks.
 */
export function registerFormat(name: string, check: FormatCheck): void {
  formats.set(name, check);
  typeboxIndex?.FormatRegistry.Set(name, check);
}

// What the compiled code calls back: custom kinds (the API has none: like TypeBox without a registered
// kind, they fail), formats, and value hashes (for unique items; loaded only if ever needed).
const kindCheck = (): boolean => false;
const formatCheck = (name: string, value: string): boolean => formats.get(name)?.(value) ?? false;
const hashValue = (value: unknown): bigint => loadTypeBox("value").Value.Hash(value);

const compiled = new WeakMap<TSchema, SchemaChecker<TSchema>>();

/** The schema's compiled checker (compiled on first use, then reused). */
export function checkerFor<S extends TSchema>(schema: S): SchemaChecker<S> {
  const cached = compiled.get(schema);
  if (cached) return cached as SchemaChecker<S>;
  const key = schemaKey(schema);
  const code = Object.hasOwn(COMPILED_CHECKS, key)
    ? COMPILED_CHECKS[key]
    : loadTypeBox("compiler").TypeCompiler.Code(schema);
  // The same evaluation as TypeBox's TypeCompiler.Compile, of the same code (TypeCompiler.Code's).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call
  const check = new Function("kind", "format", "hash", code)(kindCheck, formatCheck, hashValue) as (
    value: unknown,
  ) => boolean;
  const checker: SchemaChecker<TSchema> = {
    Check: (value: unknown): value is Static<TSchema> => check(value),
    Errors: (value: unknown) => loadTypeBox("errors").Errors(schema, [], value),
  };
  compiled.set(schema, checker);
  return checker as SchemaChecker<S>;
}

/**
 * What identifies a schema's check: a digest of its JSON form with each node's TypeBox kind and optional
 * mark (the keys TypeBox's compiler reads besides the JSON ones). Schemas built alike share it, whoever
 * built them.
 */
export function schemaKey(schema: TSchema): string {
  const form = JSON.stringify(schema, (_key, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const marks = value as { [Kind]?: unknown; [OptionalKind]?: unknown };
    if (marks[Kind] === undefined && marks[OptionalKind] === undefined) return value;
    return { ...value, "~kind": marks[Kind], "~optional": marks[OptionalKind] };
  });
  return createHash("sha256").update(form).digest("base64url");
}

interface TypeBoxParts {
  compiler: typeof import("@sinclair/typebox/compiler");
  errors: typeof import("@sinclair/typebox/errors");
  value: typeof import("@sinclair/typebox/value");
}
let typeboxIndex: typeof import("@sinclair/typebox") | undefined;

/** A part of TypeBox, loaded on first need; formats registered here reach its registry first. */
function loadTypeBox<P extends keyof TypeBoxParts>(part: P): TypeBoxParts[P] {
  if (part !== "compiler" && typeboxIndex === undefined) {
    // The error iterator and value functions check formats through TypeBox's registry.
    typeboxIndex = require("@sinclair/typebox") as typeof import("@sinclair/typebox");
    for (const [name, check] of formats) typeboxIndex.FormatRegistry.Set(name, check);
  }
  switch (part) {
    case "compiler":
      return require("@sinclair/typebox/compiler") as TypeBoxParts[P];
    case "errors":
      return require("@sinclair/typebox/errors") as TypeBoxParts[P];
    default:
      return require("@sinclair/typebox/value") as TypeBoxParts[P];
  }
}
