/** Credentials, arguments and the Output form shared by the data-source functions. */
import * as pulumi from "@pulumi/pulumi";
import type { Static, TObject } from "@sinclair/typebox";
import { Type } from "../../api/typeBuilder";
import type { CodeSecClient } from "../../client";
import { validateArguments } from "../../client/argumentValidation";
import type { FunctionDefinition } from "./definition";
import { functionArguments } from "./arguments";
import { clientFor, clientSettingsFrom } from "../clients";
import { resolveConnection, type ConfigLookup, type ConnectionInput } from "../connection";
import { warnObjectConnection } from "../deprecations";
import { isExpectedFailure } from "../errors";
import type { PulumiArgs } from "../pulumiTypes";

/**
 * Options of a function's Promise form: Pulumi's invoke options plus `connection`, so that programs
 * written for generated SDKs compile unchanged.
 *
 * What Pulumi's options mean here: codesec's functions run inside the program and call the platform
 * over HTTP; no provider plugin serves them, and the `connection` plays the part a provider resource
 * plays for a generated SDK. So:
 * - `parent` is accepted (component code passes `{ parent: this }`) and changes nothing: in Pulumi an
 *   invoke's parent only serves to find its provider, and the connection is not inherited from it.
 * - `provider` has no effect; one warning per run says so and points to `connection`.
 * - `version`, `pluginDownloadURL` and `async` concern provider plugins and have no effect.
 *
 * @example
 * ```ts
 * const me = await codesec.getCurrentUser({}, { connection: "org2", parent: this });
 * ```
 */
export interface CodeSecInvokeOptions extends pulumi.InvokeOptions {
  /**
   * Which connection to use: a name from stack config `codesec:connections` (or, deprecated, explicit
   * `{ baseUrl, token }`); otherwise stack config `codesec:baseUrl`/`codesec:token`, then the environment.
   */
  connection?: ConnectionInput;
}

/**
 * Options of a function's Output form: Pulumi's invoke output options plus `connection`.
 *
 * `dependsOn` works as in Pulumi's own `invokeOutput`: the call waits until the listed resources are
 * created or updated, the result carries them as dependencies (a resource that consumes it depends on
 * them too), and at preview, while one of them is yet to be created, the result is unknown and no call
 * is made. A component in `dependsOn` is waited for as registered; list the resources inside it that
 * the call must follow. The same holds for the resources an argument comes from: with
 * `{ requestId: app.requestId }`, the call waits for `app`, and at preview, while `app` is yet to be
 * created, the result is unknown (as Pulumi's own Output-form invokes do). `parent` and `provider` as in
 * {@link CodeSecInvokeOptions}.
 *
 * @example
 * ```ts
 * const role = new codesec.UserRole("bob", { deploymentId: "1001", userId: "502", role: codesec.OrgRole.Member });
 * export const bobSeen = codesec.getCurrentUserOutput({}, { dependsOn: [role] }).login;
 * ```
 */
export interface CodeSecInvokeOutputOptions extends pulumi.InvokeOutputOptions {
  /** As in {@link CodeSecInvokeOptions}; may be an Output (a secret, say). */
  connection?: pulumi.Input<ConnectionInput>;
}

/** Stack config as the program sees it now (`codesec:token` -> `new pulumi.Config("codesec").get("token")`). */
const programConfig: ConfigLookup = (key) => {
  const [namespace, name] = key.split(":", 2);
  return new pulumi.Config(namespace).get(name);
};

/**
 * Calls a function by its definition: the arguments validated like the client's (null or a misspelt name
 * fails before any call), the client of the connection the options name.
 */
export async function invokeFunction<A extends TObject | undefined, R extends TObject>(
  definition: FunctionDefinition<A, R>,
  args: unknown,
  opts: CodeSecInvokeOptions | undefined,
): Promise<Static<R>> {
  const input = functionArguments(definition, args);
  return definition.invoke(clientForInvoke(definition.name, opts), input as never);
}

/**
 * The options a function accepts: `connection`, and Pulumi's invoke options (accepted so that programs
 * written for generated SDKs keep working). A misspelt option is refused: `{ conection: "org2" }`
 * silently read the default organization instead.
 */
const InvokeOptionsShape = Type.Object(
  Object.fromEntries(
    ["connection", "parent", "provider", "dependsOn", "version", "pluginDownloadURL", "async"].map((name) => [
      name,
      Type.Optional(Type.Unknown()),
    ]),
  ),
  { additionalProperties: false },
);

/** The client for a function call: its connection resolved from one source, settings from stack config. */
export function clientForInvoke(name: string, opts: CodeSecInvokeOptions | undefined): CodeSecClient {
  validateArguments({ name, noun: "option" }, InvokeOptionsShape, opts, { optional: true });
  if (opts?.provider !== undefined) warnProviderOption();
  const connection = opts?.connection;
  if (connection !== undefined && connection !== null && typeof connection === "object") {
    warnObjectConnection();
  }
  return clientFor(resolveConnection(connection, programConfig), clientSettingsFrom(programConfig));
}

let providerOptionWarned = false;

/** Said once per run: a `provider` option would otherwise be ignored without a word. */
function warnProviderOption(): void {
  if (providerOptionWarned) return;
  providerOptionWarned = true;
  void pulumi.log.warn(
    "pulumi-codesec: the `provider` option of codesec's functions has no effect: they run in the program " +
      "and call the platform directly, with no provider resource. Choose the credentials with the " +
      '`connection` option instead (`{ connection: "org2" }`, see docs/credentials.md).',
  );
}

/**
 * What the result must wait for, as Pulumi's `invokeOutput` does on an engine that does not gate invokes
 * itself: the resources of `dependsOn` and those the arguments come from (an argument taken from a
 * resource's output depends on that resource). For each, its URN (registered), and for custom resources
 * also the id, which is known only once the resource exists: at preview a resource yet to be created has
 * an unknown id, which makes the whole result unknown instead of a call made too early (reading an SCM
 * app that the same run is about to connect, say). Taking these Outputs into the result also carries the
 * resources as its dependencies.
 */
function dependencyGate(
  dependsOn: pulumi.InvokeOutputOptions["dependsOn"],
  args: unknown,
): pulumi.Output<unknown> {
  const explicit =
    dependsOn === undefined
      ? pulumi.output([] as unknown[])
      : (pulumi.output(dependsOn) as pulumi.Output<unknown>).apply((value) =>
          Array.isArray(value) ? (value as unknown[]) : [value],
        );
  const fromArguments = pulumi.output(argumentResources(args));
  return pulumi.all([explicit, fromArguments]).apply(([listed, implied]) => {
    const gates: pulumi.Output<unknown>[] = [];
    for (const resource of listed.filter((r) => r !== undefined && r !== null)) {
      if (!pulumi.Resource.isInstance(resource)) {
        throw new Error(
          "pulumi-codesec: the dependsOn option of a codesec function takes resources (a resource, or an " +
            `array of them, as for any Pulumi invoke); got ${typeof resource}. ` +
            "List the resources whose creation the call must wait for.",
        );
      }
      gates.push(...gatesOf(resource));
    }
    for (const resource of implied) gates.push(...gatesOf(resource));
    return pulumi.all(gates);
  });
}

function gatesOf(resource: pulumi.Resource): pulumi.Output<unknown>[] {
  const gates: pulumi.Output<unknown>[] = [resource.urn];
  if (pulumi.CustomResource.isInstance(resource) && resource.id !== undefined) gates.push(resource.id);
  return gates;
}

/** The resources the arguments' Outputs come from, as Pulumi's own invoke finds them. */
async function argumentResources(args: unknown): Promise<pulumi.Resource[]> {
  if (args === undefined || args === null || typeof args !== "object") return [];
  const [, dependencies] = await pulumi.runtime.serializeResourceProperties(
    "codesec function arguments",
    args,
  );
  const resources = new Set<pulumi.Resource>();
  for (const set of dependencies.values()) for (const resource of set) resources.add(resource);
  return [...resources];
}

/**
 * A failure raised on purpose leaves the Output form as a `pulumi.RunError`, which the program's host
 * prints as its message alone (provider/errors.ts); the message keeps everything it says.
 * Nothing can catch a rejected Output (the program fails), so only what is printed changes; the Promise
 * form rejects with the error itself, for a program to catch by class.
 */
function asProgramFailure(error: unknown): unknown {
  if (!isExpectedFailure(error)) return error;
  const failure = new pulumi.RunError((error as Error).message);
  // Without frames: never printed, yet the host formats the stack for a trace event with util.inspect,
  // which on some Node releases loops for minutes on a frame in @pulumi/output.ts (nodejs/node#64011).
  failure.stack = `${failure.name}: ${failure.message}`;
  return failure;
}

/**
 * Builds a function's Output form from its Promise form, as Pulumi's generated SDKs pair them: the
 * arguments may be Outputs, and the result is an Output (secret when the credentials were) that
 * honours `dependsOn` (see {@link CodeSecInvokeOutputOptions}). A failure raised on purpose prints as
 * its message alone, without stack frames.
 */
export function outputForm<A, R>(
  promiseForm: (args: A, opts?: CodeSecInvokeOptions) => Promise<R>,
): (args: PulumiArgs<A> | object, opts?: CodeSecInvokeOutputOptions) => pulumi.Output<R> {
  return (args, opts) => {
    const { connection, dependsOn, ...rest } = opts ?? {};
    return pulumi
      .all([pulumi.output(args), pulumi.output(connection), dependencyGate(dependsOn, args)])
      .apply<R>(([plainArgs, plainConnection]) =>
        promiseForm(plainArgs as A, {
          ...rest,
          ...(plainConnection === undefined ? {} : { connection: plainConnection }),
        }).catch((error: unknown) => {
          throw asProgramFailure(error);
        }),
      );
  };
}
