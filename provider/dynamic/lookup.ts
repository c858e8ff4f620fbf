/**
 * Looking a resource up by id (`codesec.UserRole.get(name, id)`), as generated SDKs' static `get` does.
 * For a dynamic resource the engine then calls the provider's `read(id, props)` with only what the
 * program declared: the `__provider` stub and every property left unset. So the provider tells a lookup
 * from a refresh by the missing `deploymentId` (every stored state has one, it is a required input),
 * and takes the connection from the stack's default (stack config `codesec:baseUrl`/`codesec:token`,
 * else the environment), since a lookup has no `connection` input.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { ownershipOfResource } from "./runtimeCredentials";

/** The props of a lookup: every input and output declared (so the class gets all its Outputs), none set. */
export function lookupProps(inputs: TObject, outputKeys: readonly string[]): pulumi.Inputs {
  return Object.fromEntries(
    [...Object.keys(inputs.properties), ...outputKeys].map((key) => [key, undefined]),
  );
}

/** Whether `read` was called for a lookup by id rather than to refresh a stored state. */
export function isLookup(props: { deploymentId?: unknown } | undefined): boolean {
  return props?.deploymentId === undefined || props.deploymentId === null;
}

/**
 * The error for a kind whose state the platform cannot read back: a lookup would yield a resource with
 * nothing known but its id, so it is refused, saying what to do instead.
 */
export function lookupRefused(resourceType: string, id: string, why: string): Error {
  return new Error(
    `${resourceType}.get("${id}"): ${why} There is nothing to read it from, so it cannot be looked up by ` +
      "id: declare it with `new` in the program that manages it, or export what you need from that stack " +
      "and read it with a pulumi.StackReference.",
  );
}

/**
 * `read` of a kind the platform cannot read back: a refresh keeps the stored state (the best knowledge
 * there is, docs/drift.md), and a lookup by id is refused, since there would be nothing to read.
 */
export function stateOnlyRead<
  State extends { platform?: string; connection?: unknown; deploymentId?: unknown },
>(resourceType: string) {
  return async (id: string, props?: State): Promise<pulumi.dynamic.ReadResult<State>> => {
    if (props === undefined || isLookup(props)) {
      throw lookupRefused(
        resourceType,
        id,
        "the platform has no operation that reads this resource back (docs/drift.md).",
      );
    }
    // Nothing is read, but a refresh through a connection that now points to another platform stops as
    // every other step does; and a state written before 0.5.0 records its platform.
    const ownership = ownershipOfResource(props.platform, props, { type: resourceType, id, step: "refresh" });
    return { id, props: ownership.kind === "moving" ? props : { ...props, platform: ownership.platform } };
  };
}
