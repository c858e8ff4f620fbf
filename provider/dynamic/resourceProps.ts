/** What every codesec resource class hands to `pulumi.dynamic.Resource`, derived from the kind's definition. */
import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput } from "../connection";
import { warnObjectConnection } from "../deprecations";
import { outputNames, secretFields, type ResourceDefinition } from "../resources/definition";
import { lookupProps } from "./lookup";

/**
 * The fields of these args that are secrets: those always secret (an SCM app's `code`), and those that
 * hold a secret only for some values when theirs is one of them or not yet known. A connection given by
 * name holds no credential, so it is neither wrapped nor a secret output: the state and a diff show
 * `connection: "org2"`, not `[secret]`; an object `{ baseUrl, token }` is both.
 */
function secretFieldsOf(definition: ResourceDefinition, args: object | undefined): string[] {
  return secretFields(definition).filter((key) => {
    const secret = (definition.inputs[key] ?? definition.outputs[key])?.secret;
    if (typeof secret !== "function") return true;
    const value: unknown = (args as Record<string, unknown> | undefined)?.[key];
    if (value === undefined) return args === undefined; // a lookup by id: its value is not known
    const known = !pulumi.Output.isInstance(value) && !(value instanceof Promise);
    return !known || secret(value);
  });
}

/**
 * The props: the args with secrets wrapped (so the engine encrypts them in the inputs it stores too; see
 * {@link secretFieldsOf}), plus every output-only property as `undefined`, which is how a dynamic resource
 * declares its outputs.
 */
function resourceProps(definition: ResourceDefinition, args: object): pulumi.Inputs {
  const props: pulumi.Inputs = { ...args };
  for (const key of secretFieldsOf(definition, args)) {
    if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
  }
  for (const key of outputNames(definition)) props[key] = undefined;
  return props;
}

/**
 * The options, with the secret inputs of these args also listed as secret outputs ({@link secretFieldsOf});
 * `args` undefined (a lookup by id): every field that may hold a secret.
 */
export function resourceOptions(
  definition: ResourceDefinition,
  opts: pulumi.CustomResourceOptions | undefined,
  args?: object,
): pulumi.CustomResourceOptions {
  return {
    ...opts,
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretFieldsOf(definition, args)],
  };
}

/**
 * Warnings for what a resource's arguments and options ask that a dynamic resource cannot do: credentials
 * passed as an object rather than by name, and `customTimeouts`, which the engine never passes to a
 * dynamic provider (it would be ignored without a word).
 */
export function warnAboutArguments(
  resource: pulumi.Resource,
  args: { connection?: unknown } | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
): void {
  warnIfObjectConnection(resource, args?.connection);
  if (opts?.customTimeouts !== undefined) warnCustomTimeouts(resource);
}

let customTimeoutsWarned = false;

/** Said once per run, on the first resource that sets it. */
function warnCustomTimeouts(resource: pulumi.Resource): void {
  if (customTimeoutsWarned) return;
  customTimeoutsWarned = true;
  void pulumi.log.warn(
    "pulumi-codesec: `customTimeouts` has no effect on codesec's resources: they are dynamic resources, and " +
      "the engine does not pass timeouts to dynamic providers. What bounds their calls is stack config " +
      "`codesec:timeoutMs` (each request) and `codesec:deadlineMs` (a whole call, retries included), for " +
      "example `pulumi config set codesec:deadlineMs 30000`.",
    resource,
  );
}

/** Warns (once per run) when a resource passes its credentials as an object rather than by name. */
function warnIfObjectConnection(resource: pulumi.Resource, connection: unknown): void {
  // A plain name (the common case) needs no Output to look at.
  if (connection === undefined || typeof connection === "string") return;
  pulumi.output(connection as pulumi.Input<ConnectionInput>).apply((value) => {
    if (value !== null && typeof value === "object") warnObjectConnection(resource);
  });
}

/**
 * The props a resource class hands to the engine: its args (see {@link resourceProps}), or, for a lookup
 * by id (`X.get`), every input and output declared and none set (see `lookupProps`).
 */
export function declaredProps(definition: ResourceDefinition, args: object | undefined): pulumi.Inputs {
  return args === undefined
    ? lookupProps([...Object.keys(definition.inputs), ...outputNames(definition)])
    : resourceProps(definition, args);
}
