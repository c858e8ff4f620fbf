/**
 * The dynamic provider of each kind in the registry, made once per process. Apart from the registry so that
 * a kind's entry module (which makes only its own provider) loads no other kind, and the registry no
 * Pulumi runtime.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_DEFINITIONS, type ResourceKind } from "../resources/registry";
import { dynamicProvider } from "./dynamicProvider";

const dynamicProviders = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/** The dynamic provider of a kind: derived from its definition, one per kind per process. */
export function dynamicProviderOf(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let provider = dynamicProviders.get(kind);
  if (provider === undefined) {
    provider = dynamicProvider(RESOURCE_DEFINITIONS[kind]);
    dynamicProviders.set(kind, provider);
  }
  return provider;
}
