/**
 * Credentials inside the dynamic-provider process. The engine hands every dynamic provider the stack
 * config through `configure`, as recorded in the state at the last `pulumi up` (or, with
 * `--run-program`, as the program runs now); nothing here reads resource state for a token, unless a
 * resource still carries the deprecated object form of `connection`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CodeSecClient } from "../../sdk";
import { clientFor, clientSettingsFrom, skipsCredentialsValidation, verifyCredentials } from "../clients";
import { resolveConnection, type ConfigLookup, type ResolvedConnection } from "../connection";
import {
  CONFIG_MOVED_FROM,
  movedFromSetting,
  ownershipOf,
  platformOf,
  type OwnedResource,
  type Ownership,
} from "../ownership";

let stackConfig: pulumi.dynamic.Config | undefined;

export function rememberStackConfig(config: pulumi.dynamic.Config): void {
  stackConfig = config;
}

/** Stack config as strings: an object value (`codesec:connections`) may arrive parsed or as JSON text. */
const lookup: ConfigLookup = (key) => {
  const value: unknown = stackConfig?.get(key);
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
};

/** The connection of a resource (its `connection` input, else stack config, else env) and its client. */
function connectionAndClient(props: { connection?: unknown }): {
  connection: ResolvedConnection;
  client: CodeSecClient;
} {
  const connection = resolveConnection(props.connection, lookup);
  return { connection, client: clientFor(connection, clientSettingsFrom(lookup)) };
}

/** The client for a resource (one per connection and settings in this process). */
export function clientForResource(props: { connection?: unknown }): CodeSecClient {
  return connectionAndClient(props).client;
}

/** Proves a resource's connection reaches the platform (one read per connection per process). */
export async function verifyConnection(props: { connection?: unknown }): Promise<void> {
  const { connection, client } = connectionAndClient(props);
  await verifyCredentials(client, connection);
}

/**
 * For `check`: resolves the resource's connection and builds its client (so a bad base URL, token or
 * setting fails the preview with the setting named), then proves the credentials with one read per
 * connection per process, unless stack config `codesec:skipCredentialsValidation` is true.
 */
export async function checkConnection(
  props: { connection?: unknown },
  options: { verify: boolean },
): Promise<void> {
  const { connection, client } = connectionAndClient(props);
  if (options.verify && !skipsCredentialsValidation(lookup)) await verifyCredentials(client, connection);
}

/**
 * Where a resource belongs (see provider/ownership.ts): its recorded `platform` against the platform its
 * connection resolves to now. Throws a PlatformMismatchError when they differ and no move was asked for.
 */
export function ownershipOfResource(
  recorded: unknown,
  props: { connection?: unknown },
  resource: OwnedResource,
): Ownership {
  const { connection } = connectionAndClient(props);
  return ownershipOf(recorded, connection, movedFromSetting(lookup(CONFIG_MOVED_FROM)), resource);
}

/** The platform a resource's connection resolves to now, as resources record it. */
export function platformOfResource(props: { connection?: unknown }): string {
  return platformOf(connectionAndClient(props).connection);
}
