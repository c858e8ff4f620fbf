/**
 * Maps a resource's plain shape to the argument and output types of its Pulumi class, so each
 * resource's fields are written once (in its TypeBox shape) and the class types follow.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * Every field a `pulumi.Input`, nested objects and arrays too. An enumeration (a union of string
 * literals, such as `OrgRole`) becomes `string | OrgRole`, as in generated SDKs: a value read from
 * stack config (a `string`) compiles, and `check` refuses one outside the enumeration at preview.
 */
export type PulumiArgs<T> = { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> };
type DeepInput<T> = T extends (infer U)[]
  ? pulumi.Input<DeepInput<U>>[]
  : T extends Record<string, unknown>
    ? { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> }
    : T extends string
      ? string extends T
        ? T
        : string | T
      : T;

/** Every field a `pulumi.Output` (the resource's output properties). */
export type PulumiOutputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };
