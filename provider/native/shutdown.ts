/**
 * How the plugin process ends: when the engine asks, and when the engine is gone.
 *
 * - The engine stops a plugin at the end of a run by closing its connection, then SIGINT, then SIGKILL
 *   5 s later (pulumi's plugin.go). The plugin then takes no new call, lets the calls under way finish (a
 *   write cut in the middle would leave its outcome unknown; each call is bounded by its deadline), and
 *   exits 0, as Pulumi's Go providers do. SIGTERM is taken the same way. A second signal ends it at once.
 * - When the engine is gone (a `pulumi` killed outright: the end of stdin, ../engineGone.ts), the same
 *   stop, with the calls under way bounded by ENGINE_GONE_GRACE_MS; a signal after that is still the first.
 * - A write error on stdout or stderr is dropped, whenever it happens (../engineGone.ts says why).
 */
import { constants } from "node:os";
import {
  engineGoneGrace,
  ignoreOutputErrors,
  processHooks,
  whenEngineGone,
  type ProcessHooks,
} from "../engineGone";
import type { PluginServer } from "./server";

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Ends the process once `server` has finished its calls, when the engine asks or is gone (see above). */
export function stopWithTheEngine(server: PluginServer, hooks: ProcessHooks = processHooks()): void {
  let stopping = false;
  let closed = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // A call whose request was still arriving when the server stopped taking new ones is refused too.
    server.state.cancelled = true;
    void server.close().then(() => {
      closed = true;
      hooks.exit(0);
    });
  };
  let signalled = false;
  for (const signal of SIGNALS) {
    hooks.onSignal(signal, () => {
      // The second signal: whoever sent it will not wait (the engine's own follow-up is SIGKILL).
      if (signalled) return hooks.exit(128 + constants.signals[signal]);
      signalled = true;
      stop();
    });
  }
  ignoreOutputErrors(hooks);
  whenEngineGone(hooks, () => {
    stop();
    engineGoneGrace(hooks, server.state.calls, () => closed);
  });
}
