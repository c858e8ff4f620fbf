/**
 * The one rule for what a check failure may tell the engine. For a failure that names a property, the
 * engine prints `property '<name>' value <inputs[name]> has a problem: <reason>`: it looks the name up
 * among the top-level inputs and prints whatever it finds there, a secret's plaintext included. So a
 * failure names a property only when that is a declared, non-secret, top-level input; for anything else
 * (a secret field such as `code` or `connection`, a nested path, a misspelt key, which may hold the
 * secret meant for the field it misspells) the property is left empty and the reason, which names the
 * path itself and never quotes a secret, says it all. The dynamic and the native provider both use it.
 */
import type { TObject } from "@sinclair/typebox";
import { shownMessage } from "../api/messageText";

/** A failure as both providers report it (`pulumi.dynamic.CheckFailure` and the gRPC CheckFailure). */
export interface CheckFailure {
  /** A top-level input whose value the engine may print, or "" for none. */
  readonly property: string;
  readonly reason: string;
  /**
   * The field at fault (`filters.ids[0]`, `code`, `connection.token`), for callers that report the
   * failure themselves (tests, a policy or review tool); never sent to the engine.
   */
  readonly path: string;
}

/**
 * The failure for a problem at `path` (dotted, as the formatter words it) of inputs of `shape`, whose
 * fields named in `secrets` hold secrets (for some or all values).
 */
export function checkFailure(
  shape: TObject,
  secrets: readonly string[],
  path: string,
  reason: string,
): CheckFailure {
  const printable = Object.hasOwn(shape.properties, path) && !secrets.includes(path);
  // The reason echoes ids and values of the inputs: their control characters are shown escaped.
  return { property: printable ? path : "", reason: shownMessage(reason), path };
}
