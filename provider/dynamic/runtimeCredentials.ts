/**
 * Credentials inside the dynamic-provider process. The engine hands every dynamic provider the whole
 * stack config through `configure`; keeping it here (not in resource state) means a rotated
 * `codesec:token` is used for refresh and destroy of resources created with the old one.
 */
import type * as pulumi from "@pulumi/pulumi";
import { CodeSecClient } from "../../sdk";
import { clientFor, resolveConnection, type Connection } from "../connection";

let stackConfig: pulumi.dynamic.Config | undefined;

export function rememberStackConfig(config: pulumi.dynamic.Config): void {
  stackConfig = config;
}

/** The client for a resource: its explicit `connection` if it has one, else stack config, else env. */
export function clientForResource(props: { connection?: Partial<Connection> }): CodeSecClient {
  return clientFor(resolveConnection(props.connection, (key) => stackConfig?.get(key)));
}
