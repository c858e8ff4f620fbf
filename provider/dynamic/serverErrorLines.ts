/**
 * A failed call of the dynamic provider, as the CLI prints it. @pulumi/pulumi's dynamic-provider server
 * answers the engine with the error's message, which the CLI prints under the resource, and for check,
 * diff, read and delete also writes `${error}: ${error.stack}` to its stderr, which the CLI prints again
 * under the stack: the message twice more (`CodeSecConnectionError: X: CodeSecConnectionError: X`), then
 * stack frames. The provider process is ours (the stubs load this package into it), so that line is
 * rewritten on its way out: left out for a failure raised on purpose, whose message alone says what to do;
 * the stack alone, printed once, for any other error, which is a bug to report (../errors.ts decides which
 * is which).
 */
import { failureText, isExpectedFailure } from "../errors";

/** Where the server writes that line: `console` (a test passes its own). */
export type ErrorConsole = Pick<Console, "error">;

/** A line the server will print, and what to print instead (undefined: nothing). Oldest first. */
const rewrites = new Map<string, string | undefined>();
/** Lines that never come (create and update answer without one) are forgotten beyond this many. */
const MAX_PENDING = 100;
/** The filters installed as some console's `error`. */
const filters = new WeakSet<ErrorConsole["error"]>();

/**
 * Runs one engine call. When it fails, the server's stderr line about the failure is rewritten as the
 * module comment says; the failure itself is passed on unchanged (the engine shows its message).
 */
export async function reportedOnce<T>(call: () => Promise<T>, stderr: ErrorConsole = console): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error) rewriteServerLine(error, stderr);
    throw error;
  }
}

function rewriteServerLine(error: Error, stderr: ErrorConsole): void {
  // The server's very words (cmd/dynamic-provider/index.js); `stack` is computed once, so it matches.
  const line = `${String(error)}: ${error.stack}`;
  rewrites.delete(line);
  rewrites.set(line, isExpectedFailure(error) ? undefined : failureText(error));
  if (rewrites.size > MAX_PENDING) rewrites.delete(rewrites.keys().next().value as string);
  // Installed when first needed, and again if someone (a test) has put another `error` in its place.
  if (filters.has(stderr.error)) return;
  const write = stderr.error;
  const filter = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && rewrites.has(args[0])) {
      const instead = rewrites.get(args[0]);
      rewrites.delete(args[0]);
      if (instead !== undefined) write.call(stderr, instead);
      return;
    }
    write.apply(stderr, args);
  };
  filters.add(filter);
  stderr.error = filter;
}
