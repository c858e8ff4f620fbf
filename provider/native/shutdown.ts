/**
 * How the plugin process ends: when the engine asks, and when the engine is gone.
 *
 * - The engine stops a plugin at the end of a run by closing its connection, then SIGINT, then SIGKILL
 *   5 s later (pulumi's plugin.go). The plugin then takes no new call, lets the calls under way finish (a
 *   write cut in the middle would leave its outcome unknown; each call is bounded by its deadline), and
 *   exits 0, as Pulumi's Go providers do. SIGTERM is taken the same way. A second signal ends it at once.
 * - A `pulumi` killed outright (an out-of-memory kill, a CI runner that kills only the main process) never
 *   sends that signal, and the plugin runs in a process group of its own, so nothing else would end it:
 *   it would keep serving, with the organization's token in memory, until the machine restarts. The engine
 *   holds the write end of the plugin's stdin, so the end of stdin means the engine is gone: the same stop
 *   (a signal after it is still the first). Only a pipe or socket is watched: a plugin started by hand (a
 *   terminal) or with no stdin (`/dev/null`) keeps serving.
 * - With the engine gone, nothing a call returns can reach the state, and nobody bounds the wait: a call
 *   with a long deadline (`deadlineMs`, a resource's customTimeouts of hours) would keep the plugin, and the
 *   token, alive that long. So once the engine is gone, the calls under way get ENGINE_GONE_GRACE_MS (a
 *   call's default deadline) to finish; then the plugin exits 1. It says why on stderr, which only a
 *   plugin started by something other than the engine still has a reader for. A write it cut was sent or
 *   not: the stack holds it as a pending operation, as any write in flight at a kill, and the recovery
 *   after a kill (docs/interrupted-runs.md) settles it.
 * - With the engine gone, so are the readers of the plugin's stdout and stderr: a write to them fails
 *   (EPIPE), which would end the process with the calls it is waiting for. So a write error on stdout or
 *   stderr is dropped, whenever it happens (the engine reading them is the only reason to write there).
 */
import { fstatSync } from "node:fs";
import { constants } from "node:os";
import { DEFAULT_DEADLINE_MS } from "../../sdk/client";
import type { PluginServer } from "./server";

/** How long the calls under way may still run once the engine is gone (see above). */
export const ENGINE_GONE_GRACE_MS = DEFAULT_DEADLINE_MS;

/** What the stop needs from the process (tests/unit/native.shutdown.test.ts gives its own). */
export interface ProcessHooks {
  onSignal(signal: NodeJS.Signals, listener: () => void): void;
  /** The plugin's stdin when it is a pipe (the engine's), else undefined. */
  enginePipe(): NodeJS.ReadableStream | undefined;
  /** The plugin's stdout and stderr, whose reader is the engine. */
  readonly outputs: readonly NodeJS.WritableStream[];
  /** Runs `action` after `ms`, without keeping the process alive for it. */
  after(ms: number, action: () => void): void;
  exit(code: number): void;
}

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
  for (const output of hooks.outputs) output.on("error", () => undefined);
  let engineGone = false;
  const stopWithoutTheEngine = () => {
    if (engineGone) return;
    engineGone = true;
    stop();
    hooks.after(ENGINE_GONE_GRACE_MS, () => {
      if (closed) return;
      const stderr = hooks.outputs[hooks.outputs.length - 1];
      stderr.write(
        `pulumi-codesec: the Pulumi engine is gone and ${server.state.calls.size} call(s) to the platform ` +
          `were still under way ${ENGINE_GONE_GRACE_MS / 1000} s later: the plugin ends without their answers. ` +
          "A write among them may or may not have been applied: recover the stack as after a killed " +
          '`pulumi up` (docs/interrupted-runs.md, "Recovery after a kill").\n',
      );
      hooks.exit(1);
    });
  };
  const pipe = hooks.enginePipe();
  if (pipe !== undefined) {
    pipe.on("end", stopWithoutTheEngine);
    pipe.on("error", stopWithoutTheEngine);
    pipe.resume(); // reads (and drops) anything, so that the end is seen
  }
}

function processHooks(): ProcessHooks {
  return {
    onSignal: (signal, listener) => process.on(signal, listener),
    enginePipe: () => (isPipe(0) ? process.stdin : undefined),
    outputs: [process.stdout, process.stderr],
    after: (ms, action) => setTimeout(action, ms).unref(),
    exit: (code) => process.exit(code),
  };
}

/** Whether `fd` is a pipe: the engine's is a FIFO (Go's os.Pipe), Node's child processes get a socket. */
function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false; // no such descriptor: nothing to watch
  }
}
