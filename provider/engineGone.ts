/**
 * What a process serving these resources does when the Pulumi engine that started it is gone: the native
 * plugin (native/shutdown.ts) and Pulumi's dynamic-provider host running the dynamic resources
 * (dynamic/hostShutdown.ts).
 *
 * A `pulumi` killed outright (an out-of-memory kill, a CI runner that kills only the main process) never
 * stops the providers it started, and it starts each in a process group of its own, so nothing else
 * reaches them: they would serve on, with the organization's token in memory, until the machine restarts.
 * The engine holds the write end of a provider's stdin (pulumi's plugin.go), so the end of stdin means the
 * engine is gone. Only a pipe or socket is watched: a process started by hand (a terminal) or with no
 * stdin (`/dev/null`) is left alone.
 *
 * Once the engine is gone, nothing a call returns can reach the state, and nobody bounds the wait: a call
 * with a long deadline (`deadlineMs`, a resource's customTimeouts of hours) would keep the process, and the
 * token, alive that long. So the calls under way get ENGINE_GONE_GRACE_MS (a call's default deadline) to
 * finish; then the process exits 1 (engineGoneGrace). A write it cut was sent or not: the stack holds it
 * as a pending operation, as any write in flight at a kill, and the recovery after a kill
 * (docs/interrupted-runs.md) settles it.
 *
 * With the engine gone, so are the readers of the process's stdout and stderr: a write to them fails
 * (EPIPE), which, unhandled, ends the native plugin with the calls it is waiting for (Pulumi's
 * dynamic-provider host logs it instead, and turns its exit code into 1). So a write error on them is
 * dropped (the engine reading them is the only reason to write there).
 */
import { fstatSync } from "node:fs";
import { DEFAULT_DEADLINE_MS } from "../client/client";

/** How long the calls under way may still run once the engine is gone (see above). */
export const ENGINE_GONE_GRACE_MS = DEFAULT_DEADLINE_MS;

/** The shortest grace CODESEC_ENGINE_GONE_GRACE_MS can set: time enough for a call to answer. */
export const MIN_ENGINE_GONE_GRACE_MS = 100;

/**
 * The grace the process's environment gives: CODESEC_ENGINE_GONE_GRACE_MS, a whole number of milliseconds
 * from MIN_ENGINE_GONE_GRACE_MS to ENGINE_GONE_GRACE_MS, shortens it (so that a test of a real process need
 * not wait the full grace out). Unset or empty leaves ENGINE_GONE_GRACE_MS; any other value (not a number,
 * too short, longer: a longer grace would keep the token alive longer) leaves it too, and `warn` is told
 * why, once.
 */
export function engineGoneGraceMs(
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void = () => undefined,
): number {
  const value = env.CODESEC_ENGINE_GONE_GRACE_MS ?? "";
  if (value === "") return ENGINE_GONE_GRACE_MS;
  const ms = /^\d+$/.test(value) ? Number(value) : undefined;
  const why =
    ms === undefined
      ? "not a whole number of milliseconds"
      : ms < MIN_ENGINE_GONE_GRACE_MS
        ? `below the minimum of ${MIN_ENGINE_GONE_GRACE_MS} ms`
        : ms > ENGINE_GONE_GRACE_MS
          ? "it can only shorten the grace"
          : undefined;
  if (why === undefined) return ms!;
  warn(
    `pulumi-codesec: CODESEC_ENGINE_GONE_GRACE_MS=${JSON.stringify(value.slice(0, 40))} is ignored (${why}): ` +
      `the calls under way get ${ENGINE_GONE_GRACE_MS / 1000} s once the Pulumi engine is gone.\n`,
  );
  return ENGINE_GONE_GRACE_MS;
}

/** What the stops need from the process (the unit tests give their own). */
export interface ProcessHooks {
  onSignal(signal: NodeJS.Signals, listener: () => void): void;
  /** The process's stdin when it is a pipe (the engine's), else undefined. */
  enginePipe(): NodeJS.ReadableStream | undefined;
  /** stdout and stderr, whose reader is the engine. */
  readonly outputs: readonly NodeJS.WritableStream[];
  /** Runs `action` after `ms`, without keeping the process alive for it. */
  after(ms: number, action: () => void): void;
  exit(code: number): void;
  /** The grace once the engine is gone, when not ENGINE_GONE_GRACE_MS (engineGoneGraceMs). */
  readonly engineGoneGraceMs?: number;
}

/** The real process's hooks, once per process: a grace its environment sets but is ignored is said on stderr. */
export function processHooks(): ProcessHooks {
  return {
    onSignal: (signal, listener) => process.on(signal, listener),
    enginePipe: () => (isPipe(0) ? process.stdin : undefined),
    outputs: [process.stdout, process.stderr],
    after: (ms, action) => setTimeout(action, ms).unref(),
    exit: (code) => process.exit(code),
    engineGoneGraceMs: engineGoneGraceMs(process.env, (warning) => process.stderr.write(warning)),
  };
}

/** Drops write errors on stdout and stderr from now on (see above). */
export function ignoreOutputErrors(hooks: ProcessHooks): void {
  for (const output of hooks.outputs) output.on("error", () => undefined);
}

/**
 * Calls `gone` once, when the engine's pipe ends or fails; does nothing when stdin is not a pipe. Reads
 * (and drops) anything on the pipe, so that its end is seen.
 */
export function whenEngineGone(hooks: ProcessHooks, gone: () => void): void {
  const pipe = hooks.enginePipe();
  if (pipe === undefined) return;
  let seen = false;
  const once = () => {
    if (seen) return;
    seen = true;
    gone();
  };
  pipe.on("end", once);
  pipe.on("error", once);
  pipe.resume();
}

/**
 * Once the engine is gone: after the grace (ENGINE_GONE_GRACE_MS, or the process's own), unless
 * `finished()` by then, says on stderr how many calls were cut (a reader is left only when something other
 * than the engine started the process) and exits 1.
 */
export function engineGoneGrace(
  hooks: ProcessHooks,
  calls: ReadonlySet<unknown>,
  finished: () => boolean,
): void {
  const graceMs = hooks.engineGoneGraceMs ?? ENGINE_GONE_GRACE_MS;
  hooks.after(graceMs, () => {
    if (finished()) return;
    const stderr = hooks.outputs[hooks.outputs.length - 1];
    stderr.write(
      `pulumi-codesec: the Pulumi engine is gone and ${calls.size} call(s) to the platform were still ` +
        `under way ${graceMs / 1000} s later: the process ends without their answers. ` +
        "A write among them may or may not have been applied: recover the stack as after a killed " +
        '`pulumi up` (docs/interrupted-runs.md, "Recovery after a kill").\n',
    );
    hooks.exit(1);
  });
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
