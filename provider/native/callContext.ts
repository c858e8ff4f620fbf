/**
 * The ProviderContext of one engine call (provider/providerContext.ts): the provider's configuration,
 * messages to the user attached to the call's resource (the call answers only once the engine has them,
 * so none arrives after its step), and the call's deadline from the engine's timeout.
 *
 * Timeouts: the engine passes a Create, Update or Delete the resource's `customTimeouts` for that step,
 * in seconds; it bounds the whole call (every request, retry and wait) in place of `codesec:deadlineMs`
 * when that is unset (whatever the step's length, even over the 30 s default) or longer.
 *
 * Cancellation: after the engine's Cancel, no new call starts: each answers at once that the run was
 * cancelled. Calls already under way are not cut short (a write cut in the middle leaves its outcome
 * unknown): each ends by its deadline (`codesec:deadlineMs`, default 30 s, or the step's customTimeouts),
 * which bounds everything it does; the engine waits for them, then stops the plugin.
 */
import * as grpc from "@grpc/grpc-js";
import { callDeadline, type ProviderContext } from "../providerContext";
import type { PluginState } from "./pluginState";
import { StatusError } from "./rpcErrors";

const CANCELLED =
  "pulumi-codesec: the run was cancelled, so no new call to the platform starts; calls already under way " +
  "end by their deadline (codesec:deadlineMs or the resource's customTimeouts).";

/** One engine call: its resource, name, timeout, and whether it may reach the platform. */
export interface EngineCall {
  /** The resource's URN (empty for a function). */
  readonly urn: string;
  /** What the engine asked, as the user knows it (`Read`, `Create`, `getCurrentUser`). */
  readonly name: string;
  /** The engine's timeout for the step, in seconds (0 or absent: none). */
  readonly timeoutSeconds?: number;
  /**
   * Whether the step only plans (Check, Diff, a preview's Create or Update) and so runs while the
   * provider's configuration is not known yet; every other call reaches the platform and is refused then.
   */
  readonly plansOnly?: boolean;
}

/**
 * Runs `step` with the context of `call`, bounded by the engine's timeout. While a setting of the
 * provider's configuration is still the engine's unknown placeholder, a call that reaches the platform is
 * refused before any request: the placeholder would go out as a token or URL.
 */
export async function withCallContext<T>(
  plugin: PluginState,
  call: EngineCall,
  step: (ctx: ProviderContext) => Promise<T>,
): Promise<T> {
  if (plugin.cancelled) {
    throw new StatusError({ name: "Error", message: CANCELLED, code: grpc.status.CANCELLED });
  }
  if (call.plansOnly !== true && plugin.unknownConfig.length > 0) {
    throw new StatusError({
      name: "Error",
      message: configNotKnown(plugin.unknownConfig, call.name),
      code: grpc.status.FAILED_PRECONDITION,
    });
  }
  const timeoutSeconds = call.timeoutSeconds;
  const urn = call.urn;
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
    ...(plugin.explicitProvider === undefined ? {} : { explicitProvider: plugin.explicitProvider }),
  };
  try {
    return await step(ctx);
  } catch (error) {
    if (callDeadline(ctx).source === "customTimeouts") throw namingCustomTimeouts(error, timeoutSeconds!);
    throw error;
  } finally {
    await Promise.all(messages);
  }
}

/** The refusal of a call that would reach the platform with a setting not known yet. */
export function configNotKnown(settings: readonly string[], name: string): string {
  return (
    `pulumi-codesec: the provider's configuration (${settings.join(", ")}) is not known until apply, so ` +
    `${name} cannot run yet: nothing is sent to the platform without it. It comes from another resource's ` +
    `output not computed yet; run \`pulumi up\` so that resource exists, then run this again.`
  );
}

/**
 * The client's deadline messages name `deadlineMs` and `codesec:deadlineMs` (sdk/failureErrors.ts); when
 * the step's customTimeouts set the deadline (codesec:deadlineMs unset or longer), they name that instead:
 * it is what the user set and what to raise.
 */
function namingCustomTimeouts(error: unknown, timeoutSeconds: number): unknown {
  if (!(error instanceof Error) || !reachedDeadline(error)) return error;
  const limit = `the resource's customTimeouts (${timeoutSeconds} s for this step)`;
  error.message = error.message
    .replace(/\(deadlineMs \d+ ms, stack config codesec:deadlineMs\)/g, `(${limit})`)
    .replace(/past the call's deadline \(deadlineMs \d+ ms\)/g, `past the call's deadline (${limit})`)
    .replace(/client option deadlineMs, stack config codesec:deadlineMs/g, "the resource's customTimeouts");
  return error;
}

/** Whether the client's deadline ended `error`, or the client error it explains (its `cause`). */
function reachedDeadline(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    if ((at as { deadlineReached?: unknown }).deadlineReached === true) return true;
  }
  return false;
}
