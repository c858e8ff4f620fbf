/**
 * A stand-in for the process a provider runs in (provider/engineGone.ts ProcessHooks), for the unit tests
 * of the stops when the engine asks or is gone: its signals, its stdin (a pipe the test ends, or none),
 * its stdout and stderr, the timers it sets (run by the test) and the exits it asks for (recorded, never
 * taken).
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { ProcessHooks } from "../../provider/engineGone";

export interface StandInProcess {
  readonly hooks: ProcessHooks;
  /** Emits a signal to the listeners the stop installed. */
  readonly signals: EventEmitter;
  /** The engine's end of stdin: `end()` it to make the engine gone. */
  readonly pipe: PassThrough;
  readonly outputs: [PassThrough, PassThrough];
  /** The exit codes asked for, in order. */
  readonly exits: number[];
  /** The timers set, in order: `action()` runs one as if its time had come. */
  readonly timers: { ms: number; action: () => void }[];
  /** What was written to stderr so far. */
  stderr(): string;
  /** Resolves once the promise callbacks queued so far have run. */
  settle(): Promise<void>;
}

/**
 * A new stand-in; `pipe: false` gives it no stdin pipe (started by hand, or with /dev/null); `graceMs` is
 * the grace its environment sets (none: the default).
 */
export function standInProcess(options: { pipe?: boolean; graceMs?: number } = {}): StandInProcess {
  const signals = new EventEmitter();
  const pipe = new PassThrough();
  const outputs: [PassThrough, PassThrough] = [new PassThrough(), new PassThrough()];
  const exits: number[] = [];
  const timers: { ms: number; action: () => void }[] = [];
  const hooks: ProcessHooks = {
    onSignal: (signal, listener) => signals.on(signal, listener),
    enginePipe: () => (options.pipe === false ? undefined : pipe),
    outputs,
    after: (ms, action) => timers.push({ ms, action }),
    exit: (code) => exits.push(code),
    engineGoneGraceMs: options.graceMs,
  };
  return {
    hooks,
    signals,
    pipe,
    outputs,
    exits,
    timers,
    stderr: () => String(outputs[1].read() ?? ""),
    settle: () => new Promise((resolve) => setImmediate(resolve)),
  };
}
