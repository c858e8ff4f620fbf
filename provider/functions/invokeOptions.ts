/** Credentials and the Output form shared by the data-source functions. */
import * as pulumi from "@pulumi/pulumi";
import type { CodeSecClient } from "../../sdk";
import { clientFor, resolveConnection, type Connection } from "../connection";
import type { PulumiArgs } from "../shapes/pulumiTypes";

/** Options of a function's Promise form. */
export interface CodeSecInvokeOptions {
  /** Explicit credentials; otherwise stack config `codesec:baseUrl`/`codesec:token`, then the environment. */
  connection?: Connection;
}

/** Options of a function's Output form. */
export interface CodeSecInvokeOutputOptions {
  /** Explicit credentials (may be a secret Output); otherwise stack config, then the environment. */
  connection?: pulumi.Input<Connection>;
}

/** The client for a function call, reading stack config through `pulumi.Config` in the program. */
export function clientForInvoke(opts: CodeSecInvokeOptions | undefined): CodeSecClient {
  const config = new pulumi.Config("codesec");
  return clientFor(resolveConnection(opts?.connection, (key) => config.get(key.replace(/^codesec:/, ""))));
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
        promiseForm(plainArgs as A, connection ? { connection: connection as Connection } : undefined),
      ) as pulumi.Output<R>;
}
