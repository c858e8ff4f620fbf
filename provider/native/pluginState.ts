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
  /** The explicit Provider resource this process serves, by name; undefined for the default provider. */
  explicitProvider?: string;
  readonly engine: EngineLog;
  /** Set by Cancel: no new call starts (see cancellation in callContext.ts). */
  cancelled: boolean;
}

export function newPluginState(engineAddress?: string): PluginState {
  return {
    config: () => undefined,
    unknownConfig: [],
    engine: new EngineLog(engineAddress),
    cancelled: false,
  };
}
