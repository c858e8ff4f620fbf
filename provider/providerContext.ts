/**
 * What a kind's implementation gets from the provider that runs it, the dynamic one or the native plugin:
 * the provider's configuration (stack config or an explicit Provider resource's inputs, as namespaced keys
 * `codesec:token`), a way to tell the user something, and the call's own limits. Credentials, clients,
 * ownership and the credential check are resolved from it by the same code for both providers.
 */
import type { CodeSecClient } from "../client";
import { DEFAULT_DEADLINE_MS } from "../client/client";
import { clientFor, clientSettingsFrom, skipsCredentialsValidation, verifyCredentials } from "./clients";
import { resolveConnection, type ConfigLookup, type ResolvedConnection } from "./connection";
import {
  CONFIG_MOVED_FROM,
  movedFromSetting,
  ownershipOf,
  platformOf,
  type OwnedResource,
  type Ownership,
} from "./ownership";

export interface ProviderContext {
  /** The provider's configuration, by namespaced key (`codesec:baseUrl`); undefined when unset. */
  readonly config: ConfigLookup;
  /** Tells the user something about the resource being worked on. */
  readonly log: (severity: "info" | "warning", message: string) => void;
  /**
   * The engine's timeout for this step (a resource's `customTimeouts`), in milliseconds: the call's
   * deadline when `codesec:deadlineMs` is unset or longer (see {@link deadlineOf}). The native plugin only; the engine gives the
   * dynamic provider none.
   */
  readonly deadlineMs?: number;
  /**
   * The provider settings not known until apply (an explicit Provider's input that comes from another
   * resource's output, at preview): while there are any, nothing resolves the connection, as with a
   * resource's own `connection` still unknown. The native plugin only; stack config is always known.
   */
  readonly unknownConfig?: readonly string[];
}

/** The connection of a resource (its `connection` input, else the provider's config, else env) and its client. */
export function connectionOf(
  ctx: ProviderContext,
  props: { connection?: unknown },
): { connection: ResolvedConnection; client: CodeSecClient } {
  const connection = resolveConnection(props.connection, ctx.config);
  const settings = clientSettingsFrom(ctx.config);
  const deadline = deadlineOf(ctx.deadlineMs, settings.deadlineMs);
  if (deadline.source !== "customTimeouts") return { connection, client: clientFor(connection, settings) };
  // The step's customTimeouts chose the deadline: the client's messages name them, what the user set.
  const label = {
    limit: `the resource's customTimeouts (${deadline.deadlineMs / 1000} s for this step)`,
    raise: "the resource's customTimeouts",
  };
  return {
    connection,
    client: clientFor(connection, { ...settings, deadlineMs: deadline.deadlineMs }, label),
  };
}

/** Which setting bounds a call: the step's customTimeouts, `codesec:deadlineMs`, or the client's default. */
export type DeadlineSource = "customTimeouts" | "codesec:deadlineMs" | "default";

/**
 * A call's deadline and the setting it comes from: the step's customTimeouts (`stepMs`) whenever
 * `codesec:deadlineMs` is unset (whatever its length, even past the 30 s default) or longer; else
 * `codesec:deadlineMs`; else the client's default.
 */
export function deadlineOf(
  stepMs: number | undefined,
  configuredMs: number | undefined,
): { deadlineMs: number; source: DeadlineSource } {
  if (stepMs !== undefined && (configuredMs === undefined || stepMs < configuredMs)) {
    return { deadlineMs: stepMs, source: "customTimeouts" };
  }
  if (configuredMs !== undefined) return { deadlineMs: configuredMs, source: "codesec:deadlineMs" };
  return { deadlineMs: DEFAULT_DEADLINE_MS, source: "default" };
}

/** The client for a resource (one per connection and settings in this process). */
export function clientOf(ctx: ProviderContext, props: { connection?: unknown }): CodeSecClient {
  return connectionOf(ctx, props).client;
}

/** Proves a resource's connection reaches the platform (one read per connection per process). */
export async function verifyConnectionOf(
  ctx: ProviderContext,
  props: { connection?: unknown },
): Promise<void> {
  const { connection, client } = connectionOf(ctx, props);
  await verifyCredentials(client, connection);
}

/**
 * For `check`: resolves the resource's connection and builds its client (so a bad base URL, token or
 * setting fails the preview with the setting named), then proves the credentials with one read per
 * connection per process, unless the config's `codesec:skipCredentialsValidation` is true.
 */
export async function checkConnectionOf(
  ctx: ProviderContext,
  props: { connection?: unknown },
  options: { verify: boolean },
): Promise<void> {
  const { connection, client } = connectionOf(ctx, props);
  if (options.verify && !skipsCredentialsValidation(ctx.config)) await verifyCredentials(client, connection);
}

/**
 * Where a resource belongs (provider/ownership.ts): its recorded `platform` against the platform its
 * connection resolves to now. Throws a PlatformMismatchError when they differ and no move was asked for.
 */
export function ownershipOfResource(
  ctx: ProviderContext,
  recorded: unknown,
  props: { connection?: unknown },
  resource: OwnedResource,
): Ownership {
  const { connection } = connectionOf(ctx, props);
  const movedFrom = movedFromSetting(ctx.config(CONFIG_MOVED_FROM), connection.origin);
  return ownershipOf(recorded, connection, movedFrom, resource);
}

/** The platform a resource's connection resolves to now, as resources record it. */
export function platformOfResource(ctx: ProviderContext, props: { connection?: unknown }): string {
  return platformOf(connectionOf(ctx, props).connection);
}
