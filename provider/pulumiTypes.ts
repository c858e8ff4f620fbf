/**
 * Maps a resource's plain shape to the argument and output types of its Pulumi class, so each
 * resource's fields are written once (in its TypeBox shape) and the class types follow.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Every field a `pulumi.Input`, nested objects and arrays too. */
export type PulumiArgs<T> = { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> };
type DeepInput<T> = T extends (infer U)[]
  ? pulumi.Input<DeepInput<U>>[]
  : T extends Record<string, unknown>
    ? { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> }
    : T;

/** Every field a `pulumi.Output` (the resource's output properties). */
export type PulumiOutputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };
