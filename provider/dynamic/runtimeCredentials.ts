/**
 * The provider context inside the dynamic-provider process. The engine hands every dynamic provider the
 * stack config through `configure`, as recorded in the state at the last `pulumi up` (or, with
 * `--run-program`, as the program runs now); nothing here reads resource state for a token, unless a
 * resource still carries the deprecated object form of `connection`.
 */
import * as pulumi from "@pulumi/pulumi";
import { shownMessage } from "../../api/messageText";
import type { ConfigLookup } from "../connection";
import type { ProviderContext } from "../providerContext";

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

const context: ProviderContext = {
  config: lookup,
  log: (severity, message) => {
    // What the kinds say echoes ids and values: their control characters are shown escaped.
    const shown = shownMessage(message);
    void (severity === "warning" ? pulumi.log.warn(shown) : pulumi.log.info(shown));
  },
};

/** The context of every step in this process: the stack config the engine configured it with. */
export function dynamicContext(): ProviderContext {
  return context;
}
