/**
 * Looking a resource up by id (`codesec.UserRole.get(name, id)`), as generated SDKs' static `get` does.
 * For a dynamic resource the engine then calls the provider's `read(id, props)` with only what the
 * program declared: the `__provider` stub and every property left unset. So the provider tells a lookup
 * from a refresh by the missing `deploymentId` (every stored state has one, it is a required input),
 * and takes the connection from the stack's default (stack config `codesec:baseUrl`/`codesec:token`,
 * else the environment), since a lookup has no `connection` input.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The props of a lookup: every input and output declared (so the class gets all its Outputs), none set. */
export function lookupProps(names: readonly string[]): pulumi.Inputs {
  return Object.fromEntries(names.map((key) => [key, undefined]));
}

/** Whether `read` was called for a lookup by id rather than to refresh a stored state. */
export function isLookup(props: { deploymentId?: unknown } | undefined): boolean {
  return props?.deploymentId === undefined || props.deploymentId === null;
}
