/**
 * The ProviderContext of one engine call (provider/providerContext.ts): the provider's configuration,
 * messages to the user attached to the call's resource (the call answers only once the engine has them,
 * so none arrives after its step), and the call's deadline from the engine's timeout.
 *
 * Timeouts: the engine passes a Create, Update or Delete the resource's `customTimeouts` for that step,
 * in seconds; it bounds the whole call (every request, retry and wait) in place of `codesec:deadlineMs`
 * when that is unset (whatever the step's length, even over the 30 s default) or longer; the client's
 * messages then name them (providerContext.ts connectionOf gives the client that label).
 *
 * Cancellation: after the engine's Cancel, no new call starts: each answers at once that the run was
 * cancelled. Calls already under way are not cut short (a write cut in the middle leaves its outcome
 * unknown): each ends by its deadline (`deadlineMs`, from stack config or an explicit Provider's input,
 * default 30 s; or the step's customTimeouts), which bounds everything it does; the engine waits for them,
 * then stops the plugin.
 */
import * as grpc from "@grpc/grpc-js";
import { shownMessage } from "../../api/messageText";
import { CLIENT_SETTING_KEYS } from "../clients";
import { STACK_CONFIG, type ConfigLookup } from "../connection";
import type { ProviderContext } from "../providerContext";
import type { PluginState } from "./pluginState";
import { StatusError } from "./rpcErrors";

/** The refusal of a call after Cancel, naming the deadline where the provider's configuration sets it. */
function cancelled(config: ConfigLookup): string {
  const origin = config.origin ?? STACK_CONFIG;
  return (
    "pulumi-codesec: the run was cancelled, so no new call to the platform starts; calls already under way " +
    `end by their deadline (${origin.where(CLIENT_SETTING_KEYS.deadlineMs)} or the resource's customTimeouts).`
  );
}

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
    throw new StatusError({
      name: "Error",
      message: cancelled(plugin.config),
      code: grpc.status.CANCELLED,
    });
  }
  if (call.plansOnly !== true && plugin.unknownConfig.length > 0) {
    throw new ConfigNotKnownError(plugin.unknownConfig, call.name);
  }
  const timeoutSeconds = call.timeoutSeconds;
  const urn = call.urn;
  const messages: Promise<void>[] = [];
  const deadlineMs =
    timeoutSeconds !== undefined && timeoutSeconds > 0 ? Math.ceil(timeoutSeconds * 1000) : undefined;
  const ctx: ProviderContext = {
    config: plugin.config,
    log: (severity, message) => {
      // What the kinds say echoes ids and values: their control characters are shown escaped.
      messages.push(plugin.engine.log(severity, shownMessage(message), urn));
    },
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    unknownConfig: plugin.unknownConfig,
  };
  const underWay = (async () => {
    try {
      return await step(ctx);
    } finally {
      await Promise.all(messages);
    }
  })();
  plugin.calls.add(underWay);
  try {
    return await underWay;
  } finally {
    plugin.calls.delete(underWay);
  }
}

/**
 * The refusal of a call that would reach the platform with a setting not known yet: FAILED_PRECONDITION
 * for a resource's call; Invoke answers it as a failure (functionHandlers.ts).
 */
export class ConfigNotKnownError extends StatusError {
  constructor(settings: readonly string[], name: string) {
    super({
      name: "Error",
      message:
        `pulumi-codesec: the provider's configuration (${settings.join(", ")}) is not known until apply, so ` +
        `${name} cannot run yet: nothing is sent to the platform without it. It comes from another ` +
        "resource's output not computed yet; run `pulumi up` so that resource exists, then run this again.",
      code: grpc.status.FAILED_PRECONDITION,
    });
  }
}
