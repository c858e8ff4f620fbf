/** Credentials, arguments and the Output form shared by the data-source functions. */
import * as pulumi from "@pulumi/pulumi";
import { Type, type Static, type TObject } from "@sinclair/typebox";
import type { CodeSecClient } from "../../sdk";
import { validateArguments } from "../../sdk/argumentValidation";
import { clientFor, clientSettingsFrom } from "../clients";
import { resolveConnection, type ConfigLookup, type ConnectionInput } from "../connection";
import { warnObjectConnection } from "../deprecations";
import type { PulumiArgs } from "../pulumiTypes";

/** Options of a function's Promise form. */
export interface CodeSecInvokeOptions {
  /**
   * Which connection to use: a name from stack config `codesec:connections` (or, deprecated, explicit
   * `{ baseUrl, token }`); otherwise stack config `codesec:baseUrl`/`codesec:token`, then the environment.
   */
  connection?: ConnectionInput;
}

/** Options of a function's Output form. */
export interface CodeSecInvokeOutputOptions {
  /** As in {@link CodeSecInvokeOptions}; may be an Output (a secret, say). */
  connection?: pulumi.Input<ConnectionInput>;
}

/** Stack config as the program sees it now (`codesec:token` -> `new pulumi.Config("codesec").get("token")`). */
const programConfig: ConfigLookup = (key) => {
  const [namespace, name] = key.split(":", 2);
  return new pulumi.Config(namespace).get(name!);
};

/** A function's arguments, validated like the client's (null or a misspelt name fails before any call). */
export function functionArguments<S extends TObject>(
  name: string,
  schema: S,
  args: unknown,
  options: { optional?: boolean } = {},
): Static<S> {
  return validateArguments({ name }, schema, args, options);
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
  const connection = opts?.connection;
  if (connection !== undefined && connection !== null && typeof connection === "object") {
    warnObjectConnection();
  }
  return clientFor(resolveConnection(connection, programConfig), clientSettingsFrom(programConfig));
}

/**
 * Builds a function's Output form from its Promise form, as Pulumi's generated SDKs pair them: the
 * arguments may be Outputs, and the result is an Output (secret when the credentials were).
 */
export function outputForm<A, R>(
  promiseForm: (args: A, opts?: CodeSecInvokeOptions) => Promise<R>,
): (args: PulumiArgs<A>, opts?: CodeSecInvokeOutputOptions) => pulumi.Output<R> {
  return (args, opts) =>
    pulumi
      .all([pulumi.output(args), pulumi.output(opts?.connection)])
      .apply(([plainArgs, connection]) =>
        promiseForm(
          plainArgs as A,
          connection === undefined ? undefined : { connection: connection as ConnectionInput },
        ),
      ) as pulumi.Output<R>;
}
