/**
 * The dynamic providers' implementation, loaded at run time by the serialized stubs
 * (`require("pulumi-codesec/dynamic")`). Because the stubs load it by package name, the code that runs
 * is always the installed version's, for resources created by any earlier version.
 *
 * @internal Not part of the public API; only the stubs call it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { reportedOnce } from "./serverErrorLines";
import { endTheHostWithTheEngine, trackCall } from "./hostShutdown";
import { rememberStackConfig } from "./runtimeCredentials";
import { resourceDefinition, type ResourceKind } from "../resources/registry";
import { dynamicProviderOf } from "./kindProviders";

export type { ResourceKind } from "../resources/registry";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each provider has its own input and output types
export function provider(kind: string): pulumi.dynamic.ResourceProvider<any, any> {
  if (resourceDefinition(kind) === undefined) {
    throw new Error(
      `pulumi-codesec: this stack holds a codesec:${kind} resource, which the installed pulumi-codesec does not ` +
        `know. Install the version that created it (or a newer one) in the program's node_modules.`,
    );
  }
  return dynamicProviderOf(kind as ResourceKind);
}

type ProviderMethod = Exclude<keyof pulumi.dynamic.ResourceProvider, "configure">;

/**
 * The one entry point of the serialized stubs (provider/dynamic/stubProvider.ts). The stub's
 * `configure` is this function itself, so a non-string `method` is the engine's configure request,
 * which carries the stack config (see runtimeCredentials.ts). A failure is reported once
 * (serverErrorLines.ts). In Pulumi's dynamic-provider host, calls are counted and the host ends with the
 * engine, as through the kinds' entries (hostShutdown.ts).
 */
export function run(
  kind: string,
  method: ProviderMethod | pulumi.dynamic.ConfigureRequest,
  args: unknown[] = [],
): Promise<unknown> {
  endTheHostWithTheEngine();
  return trackCall(() =>
    reportedOnce(async () => {
      if (typeof method !== "string") {
        rememberStackConfig(method.config);
        return;
      }
      const implementation = provider(kind);
      const fn = implementation[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (typeof fn !== "function") {
        throw new Error(`pulumi-codesec: codesec:${kind} has no ${method} method`);
      }
      return fn.apply(implementation, args);
    }),
  );
}
