/**
 * The form of the one definition of a resource kind (`provider/resources/<kind>/definition.ts`), in the
 * manner of pulumi-go-provider's `infer`: each field is declared once with its type, description, secret
 * mark and what a change to it does; the kind's implementation sits beside it. Everything else is derived
 * from it and from nothing else:
 * - the inputs' and outputs' shapes (the rules of `check`, the types of the classes);
 * - the diff of both providers (replace / update / record-only / never), and whether an update calls;
 * - `schema.json` (types, secrets, `replaceOnChanges`), the generated TypeScript with TSDoc on every field,
 *   and the reference docs' "on change" column.
 * Tests derive each of them from the definitions, so none can drift from another.
 */
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Type } from "../../api/typeBuilder";
import { described } from "../../api/schemaIssues";
import type { KindImplementation } from "./kindImplementation";

/**
 * What a change to an input does:
 * - `replace`: the resource is replaced (an identity field);
 * - `update`: an update that applies the resource again on the platform;
 * - `record`: an update that only records the new value (no API call; used at destroy, or a credential
 *   source);
 * - `never`: no diff at all (a write-once secret such as the one-time `code`).
 */
export type OnChange = "replace" | "update" | "record" | "never";

/** One input: its schema (type and rules), why it exists, and what a change to it does. */
export interface InputField<S extends TSchema = TSchema> {
  readonly schema: S;
  readonly description: string;
  readonly onChange: OnChange;
  /**
   * Stored and shown only as a secret: always, or only for the values a test picks (the deprecated object
   * form of `connection` holds a token; a connection name holds none and stays readable in diffs).
   */
  readonly secret?: boolean | ((value: unknown) => boolean);
  /**
   * Whether two values differ, when that is not plain structural equality (a connection changes only when
   * its source does: a new token in the same place is no change).
   */
  readonly differs?: (old: unknown, next: unknown) => boolean;
  /** Used by create only and never kept in the state (a one-time code): no output property of that name. */
  readonly writeOnly?: boolean;
  /**
   * The argument of the platform operation it is sent as, where that name is not the input's own (`role`
   * is sent as `newRole`); for a map sent one entry per call, the argument each value is sent as. Which
   * inputs are sent follows from the operations' arguments schemas (the implementation's
   * `sentArguments`): those naming the input, or this name. An input whose change is only recorded is
   * sent by destroy (./operationArguments.ts).
   */
  readonly sentAs?: string;
  /**
   * The value of an optional input the program leaves out: `check` fills it in, schema.json carries it
   * (so the generated SDKs apply it too), and the derived description says it.
   */
  readonly default?: Static<S>;
}

/** One output beyond the inputs. */
export interface OutputField<S extends TSchema = TSchema> {
  readonly schema: S;
  readonly description: string;
  readonly secret?: boolean;
}

/** How the engine's `import` (and a lookup by id) reaches a kind. */
export type ImportRule =
  | { readonly kind: "read" }
  /** Refused at once: why, and what to do instead. */
  | { readonly kind: "refused"; readonly why: string };

/** What a refresh cannot show of a kind's drift: the drift report lists such resources apart, saying why. */
export interface RefreshBlindSpot {
  /**
   * `none`: the platform reads nothing back; `ownRoleOnly`: it reads back only the token owner's own role.
   */
  readonly visibility: "none" | "ownRoleOnly";
  /** Why, in the drift report's words. */
  readonly why: string;
}

export interface ResourceDefinition<
  I extends Record<string, InputField> = Record<string, InputField>,
  O extends Record<string, OutputField> = Record<string, OutputField>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the state type of any kind
  S = any,
> {
  /** `UserRole`: the class, `codesec:index:UserRole`, `pulumi-nodejs:dynamic/codesec:UserRole`. */
  readonly name: string;
  /** What the resource is, for the class's TSDoc, the schema and the docs (Markdown). */
  readonly description: string;
  /**
   * The platform operations it uses and their maturity, each named as the catalogue's `describeOperation`
   * names it.
   */
  readonly operations: string;
  /**
   * A lookup by id with the class's static `get`, against the emulator's default fixtures (TypeScript, as
   * in a Pulumi program whose `codesec` and `pulumi` are imported), compiled by a test. The class's example
   * of declaring one is generated from the PCL source in ./<kind>/examples/main.pp.
   */
  readonly getExample: string;
  /** The id's parts, in order: `<deploymentId>/<userId>`. */
  readonly idParts: readonly [keyof I & string, string];
  readonly inputs: I;
  readonly outputs: O;
  readonly importRule: ImportRule;
  /** What a refresh cannot see of it; absent when a refresh reads all of it back. */
  readonly unseenByRefresh?: RefreshBlindSpot;
  /**
   * Whether a replacement deletes the old resource before creating the new one (the native provider's
   * `deleteBeforeReplace`): for a kind whose old and new resource cannot exist at once. Default: create
   * first, as Pulumi does.
   */
  readonly deleteBeforeReplace?: boolean;
  /**
   * The calls to the platform; its state type is the inputs and outputs, plus what the kind keeps internally.
   */
  readonly implementation: KindImplementation<CheckedInputsOf<I>, S>;
}

/** The TypeBox shape of a field map. */
type ShapeOf<F extends Record<string, { schema: TSchema }>> = TObject<{
  -readonly [K in keyof F]: F[K]["schema"];
}>;

/** The inputs' values. */
export type InputsOf<I extends Record<string, InputField>> = Static<ShapeOf<I>>;
/** The names of the inputs declared with a default. */
type DefaultedNames<I extends Record<string, InputField>> = {
  [K in keyof I]: I[K] extends { readonly default: unknown } ? K : never;
}[keyof I];

/** The inputs as `check` returns them, which the implementation receives: every defaulted input filled in. */
export type CheckedInputsOf<I extends Record<string, InputField>> = InputsOf<I> &
  Required<Pick<InputsOf<I>, DefaultedNames<I> & keyof InputsOf<I>>>;

/**
 * What the state holds: the inputs (as applied) and the outputs. `platform` is optional: state written
 * before 0.5.0 has none until the next `pulumi up` or refresh records it.
 */
export type StateOf<
  I extends Record<string, InputField>,
  O extends Record<string, OutputField>,
> = InputsOf<I> & Omit<Static<ShapeOf<O>>, "platform"> & { platform?: string };

/** Declares a kind; the identity of its argument is kept so that every derivation is typed. */
export function defineResource<
  I extends Record<string, InputField>,
  O extends Record<string, OutputField>,
  S extends InputsOf<I> & { platform?: string },
>(definition: ResourceDefinition<I, O, S>): ResourceDefinition<I, O, S> {
  return definition;
}

const shapes = new WeakMap<object, TObject>();

function shapeOf(
  fields: Record<string, { schema: TSchema; description: string; default?: unknown }>,
  closed: boolean,
): TObject {
  let shape = shapes.get(fields);
  if (shape === undefined) {
    shape = Type.Object(
      Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldSchema(field)])),
      closed ? { additionalProperties: false } : {},
    );
    shapes.set(fields, shape);
  }
  return shape;
}

/**
 * A field's schema with its description and, for a defaulted input, its `default` (said in the description
 * too).
 */
function fieldSchema(field: { schema: TSchema; description: string; default?: unknown }): TSchema {
  if (field.default === undefined) return described(field.schema, field.description);
  const description = `${field.description} ${defaultWording(field.default)}`;
  return { ...described(field.schema, description), default: field.default };
}

/**
 * How a description says a default. One description serves every SDK's language, so a boolean is "on" or
 * "off" (Python spells JSON's `false` as `False`); a string or number reads the same in all of them.
 */
export function defaultWording(value: unknown): string {
  if (typeof value === "boolean") return value ? "On by default." : "Off by default.";
  return `Default: \`${JSON.stringify(value)}\`.`;
}

/** The inputs' shape: the rules of `check` (no unknown key) and the type of the class's args. */
export function inputShape<I extends Record<string, InputField>>(
  definition: ResourceDefinition<I>,
): ShapeOf<I> {
  return shapeOf(definition.inputs, true) as ShapeOf<I>;
}

/** The outputs' shape (beyond the inputs). */
export function outputShape<O extends Record<string, OutputField>>(
  definition: ResourceDefinition<Record<string, InputField>, O>,
): ShapeOf<O> {
  return shapeOf(definition.outputs, false) as ShapeOf<O>;
}

/** The names of the inputs whose change does `what`, in declaration order. */
export function inputsWhoseChange(definition: ResourceDefinition, what: OnChange): string[] {
  return Object.entries(definition.inputs)
    .filter(([, field]) => field.onChange === what)
    .map(([name]) => name);
}

/** The names of the inputs and outputs that hold secrets (always, or for some values). */
export function secretFields(definition: ResourceDefinition): string[] {
  return [...Object.entries(definition.inputs), ...Object.entries(definition.outputs)]
    .filter(([, field]) => field.secret !== undefined && field.secret !== false)
    .map(([name]) => name);
}

/** Whether `value` of the input or output `name` is a secret. */
export function isSecretValue(definition: ResourceDefinition, name: string, value: unknown): boolean {
  const secret = (definition.inputs[name] ?? definition.outputs[name])?.secret;
  return typeof secret === "function" ? secret(value) : secret === true;
}

/** The inputs with each absent defaulted input set to its default (what `check` returns). */
export function withDefaults<P extends Record<string, unknown>>(
  definition: ResourceDefinition,
  inputs: P,
): P {
  const filled: Record<string, unknown> = { ...inputs };
  for (const [name, field] of Object.entries(definition.inputs)) {
    if (field.default !== undefined && filled[name] === undefined) filled[name] = field.default;
  }
  return filled as P;
}

/**
 * The names of the inputs sent to the platform, in declaration order: those an arguments schema of the
 * operations the kind calls names, by the input's own name or the one it is sent as.
 */
export function sentInputNames(definition: ResourceDefinition): string[] {
  const schemas = definition.implementation.sentArguments;
  return Object.entries(definition.inputs)
    .filter(([name, field]) => schemas.some((schema) => (field.sentAs ?? name) in schema.properties))
    .map(([name]) => name);
}

/** The output property names (beyond the inputs), in declaration order. */
export function outputNames(definition: ResourceDefinition): string[] {
  return Object.keys(definition.outputs);
}

/** The inputs the state keeps, which are output properties too (all but write-only ones such as `code`). */
export function keptInputNames(definition: Pick<ResourceDefinition, "inputs">): string[] {
  return Object.entries(definition.inputs)
    .filter(([, field]) => field.writeOnly !== true)
    .map(([name]) => name);
}

/** `codesec:UserRole`: how messages name a kind (both providers). */
export function typeLabel(definition: Pick<ResourceDefinition, "name">): string {
  return `codesec:${definition.name}`;
}

/**
 * Whether the `old` and `next` values of an input differ: the one rule of the providers' diff and of the
 * review tools. An input left out that has a default holds that default; a field with its own comparison
 * (a connection's source) uses it; any other is compared structurally.
 */
export function inputChanged(field: InputField, old: unknown, next: unknown): boolean {
  // A state or a program without a defaulted input holds its default all the same.
  if (field.default !== undefined) [old, next] = [old ?? field.default, next ?? field.default];
  return field.differs ? field.differs(old, next) : !sameValue(old, next);
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
