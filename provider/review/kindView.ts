/**
 * The one place that reads a codesec resource as the engine shows it to a tool (a policy pack, `pulumi
 * preview --json`, a refresh): its type token, dynamic (`pulumi-nodejs:dynamic/codesec:<Kind>`) or native
 * (`codesec:index:<Kind>`), gives its kind, and its properties, minus the engine's serialized provider
 * (`__provider`, never shown), give that kind's typed inputs.
 */
import { RESOURCE_KIND_NAMES, type RESOURCE_DEFINITIONS, type ResourceKind } from "../resources/registry";
import type { InputsOf } from "../resources/definition";

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/codesec:";
const NATIVE_PREFIX = "codesec:index:";

/** Each kind's inputs, by kind name, as its definition declares them. */
export type KindInputs = {
  [K in ResourceKind]: InputsOf<(typeof RESOURCE_DEFINITIONS)[K]["inputs"]>;
};

/** A codesec resource's kind and inputs, whichever provider (dynamic or native) manages it. */
export type KindView = {
  [K in ResourceKind]: { readonly kind: K; readonly inputs: KindInputs[K] };
}[ResourceKind];

/** The kind a type token names (`UserRole` for both providers' tokens), or undefined for any other type. */
export function kindOfType(type: string): ResourceKind | undefined {
  const name = type.startsWith(DYNAMIC_PREFIX)
    ? type.slice(DYNAMIC_PREFIX.length)
    : type.startsWith(NATIVE_PREFIX)
      ? type.slice(NATIVE_PREFIX.length)
      : undefined;
  return name !== undefined && (RESOURCE_KIND_NAMES as string[]).includes(name)
    ? (name as ResourceKind)
    : undefined;
}

/** `UserRole` for a codesec type token, the token itself for any other type: how reports name a type. */
export function typeName(type: string): string {
  return kindOfType(type) ?? type;
}

/**
 * The resource as its kind's inputs, or undefined when `type` is no codesec kind. The properties are
 * taken as the engine gives them (already checked by the provider's `check`); `__provider` is dropped.
 */
export function viewOf(type: string, props: Readonly<Record<string, unknown>>): KindView | undefined {
  const kind = kindOfType(type);
  if (kind === undefined) return undefined;
  const inputs: Record<string, unknown> = { ...props };
  delete inputs.__provider;
  return { kind, inputs } as KindView;
}
