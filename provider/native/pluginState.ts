/**
 * What one plugin process holds across calls: the provider's configuration (from Configure; one process
 * serves one provider, default or explicit), where to log, and whether the engine has cancelled the run.
 * Every call builds its ProviderContext from it (callContext.ts).
 */
import type { ConfigLookup } from "../connection";
import { EngineLog } from "./engineLog";

export interface PluginState {
  /** The provider's configuration by namespaced key (`codesec:token`); empty until Configure. */
  config: ConfigLookup;
  /** The settings of that configuration not known until apply (ProviderContext.unknownConfig). */
  unknownConfig: string[];
  readonly engine: EngineLog;
  /** Set by Cancel, or by the process's stop (shutdown.ts): no new call starts (see callContext.ts). */
  cancelled: boolean;
  /**
   * The calls under way (callContext.ts): the server's close waits for them even when the engine that
   * asked has closed its connection, so no write is cut in the middle; with the engine gone altogether,
   * for ENGINE_GONE_GRACE_MS at most (../engineGone.ts).
   */
  readonly calls: Set<Promise<unknown>>;
}

export function newPluginState(engineAddress?: string): PluginState {
  return {
    config: () => undefined,
    unknownConfig: [],
    engine: new EngineLog(engineAddress),
    cancelled: false,
    calls: new Set(),
  };
}
