/**
 * How Pulumi's dynamic-provider host ends when the engine is gone, while it runs these resources.
 *
 * The engine runs the dynamic resources' provider in a host process of Pulumi's
 * (`@pulumi/pulumi/cmd/dynamic-provider`, started by `pulumi-resource-pulumi-nodejs`), which watches
 * nothing: after a `pulumi` killed outright it was measured still serving, with the organization's token
 * in memory, 5 minutes later (it never reads its stdin, and only a signal, which nobody sends, ends it).
 * So the first of these resources' providers that the host loads watches the engine for it
 * (../engineGone.ts): once the engine is gone, the host exits as soon as the calls to these providers under
 * way have finished, or after ENGINE_GONE_GRACE_MS. Another package's dynamic provider in the same host
 * gets no more time than that: with the engine gone, its answers have nowhere to go either.
 * In any other process (a Pulumi program, a test) nothing is installed.
 */
import {
  engineGoneGrace,
  ignoreOutputErrors,
  processHooks,
  whenEngineGone,
  type ProcessHooks,
} from "../engineGone";

/**
 * The calls to these resources' dynamic providers under way in this process, and whether the host is
 * watched: one for the process, even when it loads two copies of this package (two programs' versions).
 */
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for("pulumi-codesec.dynamicHost")] ??= {
  callsUnderWay: new Set<Promise<unknown>>(),
  watching: false,
}) as { callsUnderWay: Set<Promise<unknown>>; watching: boolean };
const callsUnderWay = shared.callsUnderWay;

/** Runs `call`, counted among the calls under way until it settles. */
export function trackCall<T>(call: () => Promise<T>): Promise<T> {
  const underWay = call();
  callsUnderWay.add(underWay);
  const done = () => callsUnderWay.delete(underWay);
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

/** In Pulumi's dynamic-provider host, and once per process: ends the host when the engine is gone (see above). */
export function endTheHostWithTheEngine(): void {
  if (shared.watching || !isDynamicProviderHost(process.argv[1])) return;
  shared.watching = true;
  watchTheEngine(callsUnderWay, processHooks());
}

/**
 * Once the engine is gone: output errors are dropped, and the process exits 0 when `calls` are all
 * settled, or 1 after the grace (../engineGone.ts). The process's hooks are the caller's (tests give
 * stand-ins).
 */
export function watchTheEngine(calls: Set<Promise<unknown>>, hooks: ProcessHooks): void {
  whenEngineGone(hooks, () => {
    ignoreOutputErrors(hooks);
    let finished = false;
    engineGoneGrace(hooks, calls, () => finished);
    void allSettled(calls).then(() => {
      finished = true;
      hooks.exit(0);
    });
  });
}

/** Resolves once `calls` is empty, including calls added while it waits. */
async function allSettled(calls: Set<Promise<unknown>>): Promise<void> {
  while (calls.size > 0) await Promise.allSettled([...calls]);
}
