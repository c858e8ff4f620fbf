/**
 * The object the engine calls for one resource kind when the stored provider is the short form
 * (`require("pulumi-codesec/dynamic/<Kind>")`, see stubProvider.ts): the kind's provider plus the
 * `configure` that receives the stack config. Each kind's generated entry module
 * (`provider/generated/engineEntries/<Kind>.ts`) exports one of these as its whole module, so loading it
 * loads that kind's implementation only.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../resources/registry";
import { reportedOnce } from "./serverErrorLines";
import { endTheHostWithTheEngine, trackCall } from "./hostShutdown";
import { rememberStackConfig } from "./runtimeCredentials";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each provider has its own input and output types
type KindProvider = pulumi.dynamic.ResourceProvider<any, any>;
type ProviderMethod = Exclude<keyof KindProvider, "configure">;
const METHODS: readonly ProviderMethod[] = ["check", "diff", "create", "read", "update", "delete"];

/**
 * `kind` names the entry (tests wrap every kind's methods through this function). Each method's failure
 * is reported once (serverErrorLines.ts). In Pulumi's dynamic-provider host, the first entry loaded makes the
 * host end with the engine, and every call is counted until it settles (hostShutdown.ts).
 */
export function engineEntry(_kind: ResourceKind, implementation: KindProvider): KindProvider {
  endTheHostWithTheEngine();
  const entry: KindProvider = {
    ...implementation,
    configure: (request: pulumi.dynamic.ConfigureRequest) => {
      rememberStackConfig(request.config);
      return Promise.resolve();
    },
  };
  for (const method of METHODS) {
    const fn = implementation[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (typeof fn !== "function") continue;
    (entry as Record<ProviderMethod, unknown>)[method] = (...args: unknown[]) =>
      trackCall(() => reportedOnce(() => fn.apply(implementation, args)));
  }
  return entry;
}
