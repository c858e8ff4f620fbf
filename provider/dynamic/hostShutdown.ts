/**
 * How Pulumi's dynamic-provider host ends when the engine is gone, once it runs these resources.
 *
 * The engine runs the dynamic resources' provider in a host process of Pulumi's
 * (`@pulumi/pulumi/cmd/dynamic-provider`, started by `pulumi-resource-pulumi-nodejs`), which watches
 * nothing: after a `pulumi` killed outright it was measured still serving, with the organization's token
 * in memory, 5 minutes later (it never reads its stdin, and only a signal, which nobody sends, ends it).
 * So the first of these resources' providers that the host loads watches the engine for it
 * (../engineGone.ts). Once the engine is gone:
 * - a call to these providers that has not started when the host sees its stdin end (a request still in its
 *   buffers) is refused: a write begun after the kill would reach the platform with no trace in the stack.
 *   One the host takes from its buffers in the same turn of its event loop as the kill may still start;
 * - the host exits 0 as soon as the calls under way have finished, or 1 after ENGINE_GONE_GRACE_MS.
 *   Another package's dynamic provider in the same host is cut at that moment, possibly in the middle of
 *   a write: its step is a pending operation in the stack either way, as every step in flight at a kill,
 *   and waiting for calls that cannot be counted from here would keep the token in a process that still
 *   serves on a local port.
 * In any other process (a Pulumi program, a test) nothing is installed.
 */
import {
  engineGoneGrace,
  ignoreOutputErrors,
  processHooks,
  whenEngineGone,
  type ProcessHooks,
} from "../engineGone";

/** The calls to these resources' providers in one process, and whether the engine is gone. */
export interface HostCalls {
  readonly underWay: Set<Promise<unknown>>;
  engineGone: boolean;
}

/** A process's calls, none under way yet (tests make their own). */
export function newHostCalls(): HostCalls {
  return { underWay: new Set(), engineGone: false };
}

/**
 * This process's calls, and whether its host is watched: one for the process, even when it loads two
 * copies of this package (two programs' versions). The key names this shape's version: a copy with
 * another shape would watch on its own, and the first to finish its calls would end the host, cutting
 * the other's; so the shape only ever gains fields, under the same key.
 */
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for("pulumi-codesec.dynamicHost.v1")] ??= {
  ...newHostCalls(),
  watching: false,
}) as HostCalls & { watching: boolean };

/** Runs `call`, counted among this process's calls under way until it settles (see trackCallIn). */
export function trackCall<T>(call: () => Promise<T>): Promise<T> {
  return trackCallIn(shared, call);
}

/** Runs `call`, counted in `calls` until it settles; refused without running once the engine is gone. */
export function trackCallIn<T>(calls: HostCalls, call: () => Promise<T>): Promise<T> {
  if (calls.engineGone) {
    return Promise.reject(
      new Error(
        "pulumi-codesec: the Pulumi engine is gone, so this call does not start: nothing it did could be " +
          "recorded in the stack.",
      ),
    );
  }
  const underWay = call();
  calls.underWay.add(underWay);
  const done = () => calls.underWay.delete(underWay);
  underWay.then(done, done);
  return underWay;
}

/** Whether `script` (the process's `argv[1]`) is Pulumi's dynamic-provider host. */
export function isDynamicProviderHost(script: string | undefined): boolean {
  return (
    script !== undefined &&
    /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(script)
  );
}

/** In Pulumi's dynamic-provider host, and once per process: ends the host with the engine (see above). */
export function endTheHostWithTheEngine(): void {
  if (shared.watching || !isDynamicProviderHost(process.argv[1])) return;
  shared.watching = true;
  watchTheEngine(shared, processHooks());
}

/**
 * Once the engine is gone: new calls are refused, output errors are dropped, and the process exits 0
 * when the calls under way have settled, or 1 after the grace (../engineGone.ts). The process's hooks are
 * the caller's (tests give stand-ins).
 */
export function watchTheEngine(calls: HostCalls, hooks: ProcessHooks): void {
  whenEngineGone(hooks, () => {
    calls.engineGone = true;
    ignoreOutputErrors(hooks);
    let finished = false;
    engineGoneGrace(hooks, calls.underWay, () => finished);
    void Promise.allSettled([...calls.underWay]).then(() => {
      finished = true;
      hooks.exit(0);
    });
  });
}
