/**
 * The ProviderContext of one engine call (provider/providerContext.ts): the provider's configuration,
 * messages to the user attached to the call's resource (the call answers only once the engine has them,
 * so none arrives after its step), and the call's deadline from the engine's timeout.
 *
 * Timeouts: the engine passes a Create, Update or Delete the resource's `customTimeouts` for that step,
 * in seconds; it bounds the whole call (every request, retry and wait) as `deadlineMs` does, when shorter.
 *
 * Cancellation: after the engine's Cancel, no new call starts: each answers at once that the run was
 * cancelled. Calls already under way are not cut short (a write cut in the middle leaves its outcome
 * unknown): each ends by its deadline (`codesec:deadlineMs`, default 30 s, or the step's customTimeouts),
 * which bounds everything it does; the engine waits for them, then stops the plugin.
 */
import * as grpc from "@grpc/grpc-js";
import { DEFAULT_DEADLINE_MS } from "../../sdk/client";
import { clientSettingsFrom } from "../clients";
import type { ProviderContext } from "../providerContext";
import type { PluginState } from "./pluginState";
import { StatusError } from "./rpcErrors";

const CANCELLED =
  "pulumi-codesec: the run was cancelled, so no new call to the platform starts; calls already under way " +
  "end by their deadline (codesec:deadlineMs or the resource's customTimeouts).";

/**
 * Runs `step` with the context of a call about the resource `urn` (empty for a function), bounded by the
 * engine's `timeoutSeconds` (0 or absent: none).
 */
export async function withCallContext<T>(
  plugin: PluginState,
  urn: string,
  timeoutSeconds: number | undefined,
  step: (ctx: ProviderContext) => Promise<T>,
): Promise<T> {
  if (plugin.cancelled) {
    throw new StatusError({ name: "Error", message: CANCELLED, code: grpc.status.CANCELLED });
  }
  const messages: Promise<void>[] = [];
  const deadlineMs =
    timeoutSeconds !== undefined && timeoutSeconds > 0 ? Math.ceil(timeoutSeconds * 1000) : undefined;
  const ctx: ProviderContext = {
    config: plugin.config,
    log: (severity, message) => {
      messages.push(plugin.engine.log(severity, message, urn));
    },
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    unknownConfig: plugin.unknownConfig,
  };
  try {
    return await step(ctx);
  } catch (error) {
    if (deadlineMs !== undefined && deadlineMs < configuredDeadlineMs(plugin)) {
      throw namingCustomTimeouts(error, timeoutSeconds!);
    }
    throw error;
  } finally {
    await Promise.all(messages);
  }
}

/** The deadline the provider's configuration gives a call (`codesec:deadlineMs`, else the client's default). */
function configuredDeadlineMs(plugin: PluginState): number {
  try {
    return clientSettingsFrom(plugin.config).deadlineMs ?? DEFAULT_DEADLINE_MS;
  } catch {
    return DEFAULT_DEADLINE_MS;
  }
}

/**
 * The client's deadline messages name `deadlineMs` and `codesec:deadlineMs` (sdk/failureErrors.ts); when
 * the step's customTimeouts set the deadline (shorter than the provider's), they name that instead: it is
 * what the user set and what to raise.
 */
function namingCustomTimeouts(error: unknown, timeoutSeconds: number): unknown {
  if (!(error instanceof Error) || (error as { deadlineReached?: unknown }).deadlineReached !== true) {
    return error;
  }
  const limit = `the resource's customTimeouts (${timeoutSeconds} s for this step)`;
  error.message = error.message
    .replace(/\(deadlineMs \d+ ms, stack config codesec:deadlineMs\)/g, `(${limit})`)
    .replace(/past the call's deadline \(deadlineMs \d+ ms\)/g, `past the call's deadline (${limit})`)
    .replace(/client option deadlineMs, stack config codesec:deadlineMs/g, "the resource's customTimeouts");
  return error;
}
