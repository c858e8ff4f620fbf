/**
 * TypeBox schemas -> the types of a Pulumi package schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/):
 *
 * | TypeBox                                   | Pulumi schema                                           |
 * |-------------------------------------------|---------------------------------------------------------|
 * | String, Number, Integer, Boolean          | `{ type: "string" }`, ... (patterns and ranges are the provider's `check`) |
 * | Array                                     | `{ type: "array", items }`                              |
 * | Record (string keys)                      | `{ type: "object", additionalProperties }`              |
 * | Object with fixed properties              | `{ $ref: "#/types/<pkg>:index:<Name>" }`, a named object type |
 * | Union of string literals                  | `{ $ref: "#/types/<pkg>:index:<Name>" }`, a named enum type |
 * | any other Union (a name or an object)     | `{ oneOf: [...] }`                                      |
 * | Unknown                                   | `{ $ref: "pulumi.json#/Any" }`                          |
 *
 * Object and enum types get their names from a table ({@link NamedTypes}), never invented: a nested object
 * or enum missing from it is an error naming where it was met. A table entry matches a schema and every
 * copy the shapes make of it (`Type.Optional`, `described`), which share its `properties` or `anyOf`.
 * Descriptions and defaults come from the schemas' `description` and `default`; a schema marked `secretValue` becomes `secret: true`.
 * Property names are the schema's (camelCase: the platform's `config_error` is `configError`), from the
 * one mapping the native plugin also renames values with (provider/schemaNames.ts).
 */
import { KindGuard, type TObject, type TSchema, type TUnion } from "@sinclair/typebox";
import { isSecretSchema } from "../../api/schemaIssues";
import { schemaName } from "../../provider/schemaNames";

/** A type reference of the Pulumi schema (`typeSpec`). */
export interface TypeSpec {
  readonly type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly items?: TypeSpec;
  readonly additionalProperties?: TypeSpec;
  readonly $ref?: string;
  readonly oneOf?: readonly TypeSpec[];
}

/** A property of a resource, function, object type or the config (`propertySpec`). */
export interface PropertySpec extends TypeSpec {
  readonly description?: string;
  readonly default?: unknown;
  readonly secret?: true;
  readonly replaceOnChanges?: true;
}

/** An object's properties and the names of the required ones (`required` is left out when empty). */
export interface ObjectSpec {
  readonly properties: Readonly<Record<string, PropertySpec>>;
  readonly required?: readonly string[];
}

export interface ObjectTypeSpec extends ObjectSpec {
  readonly type: "object";
  readonly description?: string;
}

export interface EnumTypeSpec {
  readonly type: "string";
  readonly description?: string;
  readonly enum: readonly { readonly name: string; readonly value: string }[];
}

/** The names of the object and enum types, by the schema they are made from. */
export interface NamedTypes {
  /** Object shapes that become object types `<pkg>:index:<Name>`. */
  readonly objects: Readonly<Record<string, TObject>>;
  /** String-literal unions that become enum types, with each value's member name (`Admin` for `ORG_ROLE_ADMIN`). */
  readonly enums: Readonly<
    Record<
      string,
      {
        readonly schema: TUnion;
        readonly members: Readonly<Record<string, string>>;
        readonly description: string;
      }
    >
  >;
}

/** What a property is beyond its type. */
export interface PropertyOptions {
  readonly secret?: boolean;
  readonly replaceOnChanges?: boolean;
}

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };

/**
 * Converts schemas for one package, collecting the named types they reference; {@link types} then gives
 * the `types` section with exactly those.
 */
export class SchemaTypes {
  private readonly objectNames = new Map<object, string>();
  private readonly enumNames = new Map<object, string>();
  private readonly referenced = new Map<string, ObjectTypeSpec | EnumTypeSpec>();

  constructor(
    private readonly pkg: string,
    private readonly named: NamedTypes,
  ) {
    for (const [name, schema] of Object.entries(named.objects)) this.objectNames.set(schema.properties, name);
    for (const [name, { schema, members }] of Object.entries(named.enums)) {
      const values = schema.anyOf.map((member) => member.const as unknown);
      const named = Object.values(members);
      if (values.length !== named.length || values.some((value) => !named.includes(value as string))) {
        throw new Error(
          `enum ${name}: its members name ${named.join(", ")}, its schema allows ${values.join(", ")}`,
        );
      }
      this.enumNames.set(schema.anyOf, name);
    }
  }

  /** `<pkg>:index:<name>`. */
  token(name: string): string {
    return `${this.pkg}:index:${name}`;
  }

  /** An object's properties; `where` names it in errors (`UserRole.inputs`). */
  object(
    shape: TObject,
    where: string,
    options: (field: string) => PropertyOptions = () => ({}),
  ): ObjectSpec {
    const properties = Object.fromEntries(
      Object.entries(shape.properties).map(([field, schema]) => [
        schemaName(field),
        this.property(schema, `${where}.${field}`, options(field)),
      ]),
    );
    const required = shape.required ?? [];
    return required.length > 0 ? { properties, required: required.map(schemaName) } : { properties };
  }

  property(schema: TSchema, where: string, options: PropertyOptions = {}): PropertySpec {
    return {
      ...(typeof schema.description === "string" ? { description: schema.description } : {}),
      ...this.type(schema, where),
      ...(schema.default !== undefined ? { default: schema.default as unknown } : {}),
      ...(options.secret || isSecretSchema(schema) ? { secret: true as const } : {}),
      ...(options.replaceOnChanges ? { replaceOnChanges: true as const } : {}),
    };
  }

  type(schema: TSchema, where: string): TypeSpec {
    if (Array.isArray(schema.anyOf)) return this.union(schema, where);
    switch (schema.type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        if (schema.const !== undefined) throw new Error(`${where}: a literal alone has no Pulumi type`);
        return { type: schema.type as "string" | "number" | "integer" | "boolean" };
      case "array":
        return { type: "array", items: this.type(schema.items as TSchema, `${where}[]`) };
      case "object":
        if (schema.patternProperties !== undefined) {
          const [value] = Object.values(schema.patternProperties as Record<string, TSchema>);
          return { type: "object", additionalProperties: this.type(value, `${where}{}`) };
        }
        return this.namedObject(schema as TObject, where);
    }
    if (KindGuard.IsUnknown(schema)) return ANY;
    throw new Error(`${where}: no Pulumi type for the schema ${JSON.stringify(schema)}`);
  }

  /** The `types` section: every object and enum type referenced so far, by token, sorted. */
  types(): Record<string, ObjectTypeSpec | EnumTypeSpec> {
    return Object.fromEntries([...this.referenced].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private union(schema: TSchema, where: string): TypeSpec {
    const members = schema.anyOf as TSchema[];
    const enumName = this.enumNames.get(schema.anyOf as object);
    if (enumName !== undefined) return this.reference(enumName, () => this.enumType(enumName));
    if (members.every((member) => member.const !== undefined)) {
      throw new Error(`${where}: a union of literals needs a name: add it to the named enum types`);
    }
    return { oneOf: members.map((member, index) => this.type(member, `${where}|${index}`)) };
  }

  private namedObject(schema: TObject, where: string): TypeSpec {
    const name = this.objectNames.get(schema.properties);
    if (name === undefined) {
      throw new Error(
        `${where}: an object with the fields ${Object.keys(schema.properties).join(", ")} needs a name: ` +
          "add its schema to the named object types",
      );
    }
    return this.reference(name, () => {
      const original = this.named.objects[name];
      return {
        type: "object",
        ...(typeof original.description === "string" ? { description: original.description } : {}),
        ...this.object(original, name),
      };
    });
  }

  private enumType(name: string): EnumTypeSpec {
    const { schema, members, description } = this.named.enums[name];
    const memberOf = new Map(Object.entries(members).map(([member, value]) => [value, member]));
    const values = schema.anyOf.map((literal) => literal.const as string);
    return {
      type: "string",
      description,
      enum: values.map((value) => ({ name: memberOf.get(value)!, value })),
    };
  }

  /** A `$ref` to a named type, defining the type the first time (before its own fields, so cycles end). */
  private reference(name: string, define: () => ObjectTypeSpec | EnumTypeSpec): TypeSpec {
    const token = this.token(name);
    if (!this.referenced.has(token)) {
      this.referenced.set(token, { type: "object", properties: {} }); // placeholder while defining
      this.referenced.set(token, define());
    }
    return { $ref: `#/types/${token}` };
  }
}
