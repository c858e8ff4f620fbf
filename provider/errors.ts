/**
 * The provider's errors, in one place: the failures it raises on purpose, which of them a user is shown as
 * their message alone, what a check failure may tell the engine, and how a failed call of the dynamic
 * provider reads in the CLI. The client's errors are `client/errors.ts`; the native plugin's gRPC answers
 * are `provider/native/rpcErrors.ts`, which asks {@link failureText} what a failure shows.
 *
 * Messages are built where the failure is found (a kind's implementation, the connection's checks), as
 * they say what that step found; the classes here carry them, and shown text escapes what comes from
 * outside (api/messageText.ts).
 */
import type { TObject } from "@sinclair/typebox";
import { shownMessage } from "../api/messageText";
import { CodeSecError } from "../client/errors";
import { CodeSecConnectionError } from "./connection";

// ---------------------------------------------------------------------------------------------------
// Failures raised on purpose
// ---------------------------------------------------------------------------------------------------

/**
 * A resource step that cannot go on, raised on purpose with a message that says why and what to do (an
 * SCM app that is not connected, an id that is not of the kind's form, an import the platform cannot
 * serve, a role the package does not know). Like the client's errors, it is shown as its message alone
 * ({@link isExpectedFailure}), never as a bug's stack.
 */
export class CodeSecResourceError extends Error {
  /**
   * `cause`: the client's error this one explains, when there is one (its deadline, say). The message
   * echoes ids and values from outside (an import's id, a state, the platform): any control character
   * they bring is shown escaped (api/messageText.ts), whichever message echoes them.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(shownMessage(message), options);
    this.name = new.target.name;
  }
}

/**
 * A create or update that applied part of its work and then failed: the engine records `properties` as the
 * state of a resource that failed to initialize (so what was applied is not lost, and the next `pulumi up`
 * applies again), and shows `reasons`. Both providers pass it on that way: the dynamic provider through
 * the error's `id` and `properties`, the plugin as gRPC `ErrorResourceInitFailed` (native/rpcErrors.ts).
 */
export class ResourceInitError extends Error {
  constructor(
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The same failure with more properties recorded (the platform, the dynamic provider's own key). */
  withProperties(more: Record<string, unknown>): ResourceInitError {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as ResourceInitError;
    Object.assign(copy, this, { properties: { ...this.properties, ...more } });
    Object.defineProperty(copy, "message", { value: this.message, enumerable: false, writable: true });
    Object.defineProperty(copy, "stack", { value: this.stack, enumerable: false, writable: true });
    return copy;
  }
}

// ---------------------------------------------------------------------------------------------------
// Which failures are shown as their message alone
// ---------------------------------------------------------------------------------------------------

/*
 * Which failures the package raises on purpose: the client's errors (every `CodeSecError`), a connection
 * that cannot be used (`CodeSecConnectionError`, `MissingCredentialsError`, `PlatformMismatchError`), a
 * create or update that applied part of its work (`ResourceInitError`: `ProvisioningPartialFailure`), and
 * a resource step that cannot go on (`CodeSecResourceError`: an SCM app that is not connected, an import
 * the platform cannot serve). Their messages say what happened and what to do, so a user is shown the
 * message alone. Any other error is a bug, ours or a library's, and keeps its stack for the bug report.
 * Applied where errors leave the package: engine calls ({@link reportedOnce}; the native plugin's
 * answers, native/rpcErrors.ts) and the functions' Output form (functions/invokeOptions.ts).
 */

/** Whether `error` is a failure the package raises on purpose (see above). */
export function isExpectedFailure(error: unknown): boolean {
  return (
    error instanceof CodeSecError ||
    error instanceof CodeSecConnectionError ||
    error instanceof ResourceInitError ||
    error instanceof CodeSecResourceError
  );
}

/** What a user is shown of a failure: the message of one raised on purpose, else the stack of a bug. */
export function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return isExpectedFailure(error) ? error.message : (error.stack ?? String(error));
}

// ---------------------------------------------------------------------------------------------------
// Check failures: what an invalid input may tell the engine
// ---------------------------------------------------------------------------------------------------

/*
 * The one rule for what a check failure may tell the engine. For a failure that names a property, the
 * engine prints `property '<name>' value <inputs[name]> has a problem: <reason>`: it looks the name up
 * among the top-level inputs and prints whatever it finds there, a secret's plaintext included. So a
 * failure names a property only when that is a declared, non-secret, top-level input; for anything else
 * (a secret field such as `code` or `connection`, a nested path, a misspelt key, which may hold the
 * secret meant for the field it misspells) the property is left empty and the reason, which names the
 * path itself and never quotes a secret, says it all. The dynamic and the native provider both use it.
 */

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

// ---------------------------------------------------------------------------------------------------
// A failed call of the dynamic provider, as the CLI prints it
// ---------------------------------------------------------------------------------------------------

/*
 * @pulumi/pulumi's dynamic-provider server answers the engine with the error's message, which the CLI
 * prints under the resource, and for check, diff, read and delete also writes `${error}: ${error.stack}`
 * to its stderr, which the CLI prints again under the stack: the message twice more
 * (`CodeSecConnectionError: X: CodeSecConnectionError: X`), then stack frames. The provider process is
 * ours (the stubs load this package into it), so that line is rewritten on its way out: left out for a
 * failure raised on purpose, whose message alone says what to do; the stack alone, printed once, for any
 * other error, which is a bug to report.
 */

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
 * section says; the failure itself is passed on unchanged (the engine shows its message).
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
