/**
 * The TypeBox builders the API's schemas use (`Type.String`, `Type.Object`, ...), producing exactly the
 * schema objects TypeBox's own builders produce (the same `TypeBox.Kind` / `TypeBox.Optional` symbols,
 * keys and options; tests/unit/api.typeBuilder.test.ts compares them), without loading TypeBox: its
 * index (and `@sinclair/typebox/type`) loads 200 modules, about 55 ms of CPU, which would make the cold
 * load of the client 5 times and of a kind's engine entry 4 times as long (bench/moduleLoad.ts). Types
 * come from TypeBox (`import type`, nothing at run time), so `Static<>` and every TypeBox consumer keep
 * working.
 * Anything beyond this subset: use TypeBox itself (the emulator does).
 */
import type {
  Kind as TypeBoxKind,
  OptionalKind as TypeBoxOptionalKind,
  TransformKind as TypeBoxTransformKind,
  ArrayOptions,
  IntegerOptions,
  NumberOptions,
  ObjectOptions,
  SchemaOptions,
  Static,
  StringOptions,
  TArray,
  TBoolean,
  TInteger,
  TLiteral,
  TLiteralValue,
  TNumber,
  TObject,
  TOmit,
  TOptional,
  TProperties,
  TRecord,
  TSchema,
  TString,
  TUnion,
  TUnknown,
} from "@sinclair/typebox";

/**
 * TypeBox's `Kind`, `OptionalKind` and `TransformKind`, which it defines as these global symbols
 * (`Symbol.for`) so that schemas from any copy of TypeBox are read alike: the same values, taken from
 * the registry instead of TypeBox's index. tests/unit/api.typeBuilder.test.ts holds them identical to
 * TypeBox's exports.
 */
export const Kind: typeof TypeBoxKind = Symbol.for("TypeBox.Kind") as typeof TypeBoxKind;
export const OptionalKind: typeof TypeBoxOptionalKind = Symbol.for(
  "TypeBox.Optional",
) as typeof TypeBoxOptionalKind;
export const TransformKind: typeof TypeBoxTransformKind = Symbol.for(
  "TypeBox.Transform",
) as typeof TypeBoxTransformKind;
/** TypeBox's key pattern of a record keyed by any string. */
const ANY_STRING_KEY = "^(.*)$";

/** TypeBox's `CreateType` in its default instance mode: the options, then the schema's own keys. */
function create<T>(schema: object, options?: object): T {
  return (options === undefined ? schema : { ...options, ...schema }) as T;
}

function isOptional(schema: TSchema): boolean {
  return schema[OptionalKind] === "Optional";
}

function objectOf<T extends TProperties>(properties: T, options?: ObjectOptions): TObject<T> {
  const required = Object.keys(properties).filter((key) => !isOptional(properties[key]));
  const schema =
    required.length > 0
      ? { [Kind]: "Object", type: "object", required, properties }
      : { [Kind]: "Object", type: "object", properties };
  return create(schema, options);
}

/** The builders, under TypeBox's names. */
export const Type = {
  String: (options?: StringOptions): TString => create({ [Kind]: "String", type: "string" }, options),
  Integer: (options?: IntegerOptions): TInteger => create({ [Kind]: "Integer", type: "integer" }, options),
  Number: (options?: NumberOptions): TNumber => create({ [Kind]: "Number", type: "number" }, options),
  Boolean: (options?: SchemaOptions): TBoolean => create({ [Kind]: "Boolean", type: "boolean" }, options),
  Unknown: (options?: SchemaOptions): TUnknown => create({ [Kind]: "Unknown" }, options),
  Literal: <T extends TLiteralValue>(value: T, options?: SchemaOptions): TLiteral<T> =>
    create({ [Kind]: "Literal", const: value, type: typeof value }, options),
  Array: <T extends TSchema>(items: T, options?: ArrayOptions): TArray<T> =>
    create({ [Kind]: "Array", type: "array", items }, options),
  /** Two or more members (TypeBox turns zero into `Never` and one into the member itself; not needed here). */
  Union: <T extends TSchema[]>(types: [...T], options?: SchemaOptions): TUnion<T> => {
    if (types.length < 2) throw new TypeError("Type.Union: give at least two members");
    return create({ [Kind]: "Union", anyOf: types }, options);
  },
  Optional: <T extends TSchema>(schema: T): TOptional<T> => create({ ...schema, [OptionalKind]: "Optional" }),
  Object: objectOf,
  /** A record keyed by any string (the only key type the API uses). */
  Record: <V extends TSchema>(key: TString, value: V, options?: ObjectOptions): TRecord<TString, V> => {
    if ((key as { pattern?: unknown }).pattern !== undefined) {
      throw new TypeError("Type.Record: a key pattern is not supported here; use TypeBox");
    }
    return create(
      { [Kind]: "Record", type: "object", patternProperties: { [ANY_STRING_KEY]: value } },
      options,
    );
  },
  /** The object without the given properties (its other options kept, as TypeBox does). */
  Omit: <T extends TObject, K extends (keyof Static<T> & string)[]>(
    schema: T,
    keys: readonly [...K],
    options?: ObjectOptions,
  ): TOmit<T, K> => {
    const rest = { ...schema } as unknown as Record<PropertyKey, unknown>;
    for (const key of ["$id", "required", "properties"]) delete rest[key];
    delete rest[TransformKind];
    const properties: TProperties = { ...schema.properties };
    for (const key of keys) delete properties[key];
    return create<TOmit<T, K>>(objectOf(properties, rest as ObjectOptions), options);
  },
};
