/**
 * api/typeBuilder.ts stands in for TypeBox's builders so the API loads without TypeBox: its schemas must
 * be exactly TypeBox's, symbols included, or TypeBox's compiler and error iterator would read them
 * differently. Each builder is compared with TypeBox's own on the forms the API uses.
 */
import {
  Kind as TypeBoxKind,
  OptionalKind as TypeBoxOptionalKind,
  TransformKind as TypeBoxTransformKind,
  Type as TypeBox,
  type TObject,
  type TSchema,
} from "@sinclair/typebox";
import { expect } from "chai";
import { Kind, OptionalKind, TransformKind, Type } from "../../api/typeBuilder";

/** Own keys, symbols included, recursively: what TypeBox's guards and compiler may read. */
function anatomy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anatomy);
  if (value === null || typeof value !== "object") return value;
  const keys = [...Object.keys(value), ...Object.getOwnPropertySymbols(value)];
  return keys
    .map((key) => [String(key), anatomy((value as Record<PropertyKey, unknown>)[key])] as const)
    .sort(([a], [b]) => a.localeCompare(b));
}

function same(ours: TSchema, theirs: TSchema): void {
  expect(anatomy(ours)).to.deep.equal(anatomy(theirs));
}

describe("api/typeBuilder: the same schemas as TypeBox", () => {
  const options = { description: "a value", minLength: 1, maxLength: 20, pattern: "^[0-9]+$" };

  it("marks schemas with TypeBox's own Kind, OptionalKind and TransformKind symbols", () => {
    expect(Kind).to.equal(TypeBoxKind);
    expect(OptionalKind).to.equal(TypeBoxOptionalKind);
    expect(TransformKind).to.equal(TypeBoxTransformKind);
  });

  it("scalars, with and without options", () => {
    same(Type.String(), TypeBox.String());
    same(Type.String(options), TypeBox.String(options));
    same(Type.String({ format: "date-time" }), TypeBox.String({ format: "date-time" }));
    same(Type.Integer({ minimum: 1, maximum: 100 }), TypeBox.Integer({ minimum: 1, maximum: 100 }));
    same(Type.Number(), TypeBox.Number());
    same(Type.Boolean({ description: "x" }), TypeBox.Boolean({ description: "x" }));
    same(Type.Unknown(), TypeBox.Unknown());
    same(Type.Literal("ORG_ROLE_ADMIN"), TypeBox.Literal("ORG_ROLE_ADMIN"));
    same(Type.Literal(3), TypeBox.Literal(3));
  });

  it("optional, array, union, record", () => {
    same(Type.Optional(Type.String(options)), TypeBox.Optional(TypeBox.String(options)));
    same(Type.Array(Type.Integer(), { maxItems: 5 }), TypeBox.Array(TypeBox.Integer(), { maxItems: 5 }));
    same(
      Type.Union([Type.Literal("a"), Type.Literal("b")], { description: "one of a, b" }),
      TypeBox.Union([TypeBox.Literal("a"), TypeBox.Literal("b")], { description: "one of a, b" }),
    );
    same(Type.Record(Type.String(), Type.Unknown()), TypeBox.Record(TypeBox.String(), TypeBox.Unknown()));
    same(
      Type.Record(Type.String(), Type.String(), { description: "urls" }),
      TypeBox.Record(TypeBox.String(), TypeBox.String(), { description: "urls" }),
    );
  });

  it("objects: required from the non-optional properties, options kept", () => {
    const build = (T: typeof Type) =>
      T.Object(
        {
          id: T.String(options),
          count: T.Optional(T.Integer()),
          nested: T.Object({ flag: T.Optional(T.Boolean()) }),
          list: T.Optional(T.Array(T.String())),
        },
        { additionalProperties: false, description: "a thing" },
      );
    same(build(Type), build(TypeBox as unknown as typeof Type));
    same(Type.Object({}), TypeBox.Object({}));
    same(
      Type.Object({ a: Type.Optional(Type.String()) }),
      TypeBox.Object({ a: TypeBox.Optional(TypeBox.String()) }),
    );
  });

  it("omit: the other properties and the object's options", () => {
    const build = (T: typeof Type) =>
      T.Object(
        { a: T.String(), b: T.Optional(T.Integer()), c: T.Boolean() },
        { additionalProperties: false, description: "x", $id: "Thing" },
      );
    const theirs = build(TypeBox as unknown as typeof Type) as TSchema as TObject;
    same(Type.Omit(build(Type), ["c"]), TypeBox.Omit(theirs, ["c"]));
    same(Type.Omit(build(Type), ["a", "b"]), TypeBox.Omit(theirs, ["a", "b"]));
  });

  it("refuses what it does not build rather than building something else", () => {
    expect(() => Type.Union([Type.String()])).to.throw(TypeError);
    expect(() => Type.Record(Type.String({ pattern: "^a" }), Type.String())).to.throw(TypeError);
  });
});
