/**
 * The provider's errors, in one place: the failures it raises on purpose and the building of their
 * messages, which of them a user is shown as their message alone, and what a check failure may tell the
 * engine. The client's errors are `client/errors.ts`; the native plugin's gRPC answers are
 * `provider/native/rpcErrors.ts`, which asks {@link failureText} what a failure shows; the dynamic
 * provider's console output about a failure is `provider/dynamic/serverErrorLines.ts`.
 *
 * A failure with a message of its own (missing credentials, a platform mismatch, a partial failure) words
 * it here; a check that fails with a `CodeSecConnectionError` or a `CodeSecResourceError` words what it
 * found where it finds it (a connection's settings, an id's form). Shown text escapes what comes from
 * outside (api/messageText.ts).
 */
import type { TObject } from "@sinclair/typebox";
import { quotedText, shownMessage } from "../api/messageText";
import { CodeSecError } from "../client/errors";
import {
  CONFIG_MOVED_FROM,
  ENV_BASE_URL,
  ENV_TOKEN,
  providerInputsOrigin,
  STACK_CONFIG,
  type ConnectionSource,
} from "./configOrigin";

// ---------------------------------------------------------------------------------------------------
// A resource step that cannot go on
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

// ---------------------------------------------------------------------------------------------------
// A connection that cannot be used
// ---------------------------------------------------------------------------------------------------

/**
 * A connection (or a client setting) that cannot be used; `field` names the setting at fault. Its message
 * is worded where the setting is checked (provider/connection.ts, provider/clients.ts,
 * provider/ownership.ts), in the words of where the setting comes from (`ConfigOrigin`).
 */
export class CodeSecConnectionError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * No source has credentials; the message names all three ways to set them, in the words of where the
 * provider's configuration comes from.
 */
export class MissingCredentialsError extends CodeSecConnectionError {
  /**
   * @param providerName The resource name of the explicit `codesec.Provider` whose inputs hold the
   *   provider's configuration (`org2` for `new codesec.Provider("org2", ...)`): the message says to set
   *   that Provider's inputs. Without one (or with `""`, which names no resource), the default provider's:
   *   stack config.
   */
  constructor(providerName?: string) {
    const origin =
      providerName === undefined || providerName === "" ? STACK_CONFIG : providerInputsOrigin(providerName);
    // The example connection's name: an explicit Provider is often named after an organization itself.
    const name = origin === STACK_CONFIG ? "org2" : "team2";
    super(
      "connection",
      `pulumi-codesec: no credentials. Set them in one of three ways: ${origin.howToSetCredentials}, ` +
        `the environment variables ${ENV_BASE_URL} and ${ENV_TOKEN}, or a named connection ` +
        `(\`connection: "${name}"\` with ${origin.howToDefineConnection(name)}).`,
    );
  }
}

/** What a mismatch message needs to name the resource. */
export interface OwnedResource {
  /** `codesec:UserRole` */
  readonly type: string;
  /** The resource's id, `1001/502`, when it has one. */
  readonly id?: string;
  /** What was about to happen: `preview`, `refresh`, `destroy (roleOnDestroy)`. */
  readonly step: string;
}

/**
 * A resource recorded on one platform whose connection now points to another (provider/ownership.ts):
 * nothing was read, written or removed. The message names both platforms, the setting the connection came
 * from, and both ways on, in the words of the connection's origin (stack config, or an explicit Provider's
 * inputs).
 */
export class PlatformMismatchError extends CodeSecConnectionError {
  constructor(
    readonly recorded: string,
    readonly current: string,
    connection: ConnectionSource,
    movedFrom: string | undefined,
    resource: OwnedResource,
  ) {
    const { origin } = connection;
    const subject = resource.id === undefined ? resource.type : `${resource.type} ${resource.id}`;
    const ignoredMove =
      movedFrom === undefined
        ? ""
        : ` (${origin.subject(CONFIG_MOVED_FROM)} is ${quotedText(movedFrom)}, which is not the platform ` +
          "this resource was created on)";
    const move = `${origin.howToSet(CONFIG_MOVED_FROM, recorded)}, then ${
      origin.providerName !== undefined ? "run " : ""
    }\`pulumi up\``;
    super(
      connection.fields.baseUrl,
      `${subject} was created on the platform at ${recorded}, but its connection ` +
        `(${connection.source}) now points to ${current}${ignoredMove}. A resource is only ever ` +
        `read, written or removed on its own platform, so the ${resource.step} stopped here and ` +
        `nothing was sent to either platform. If the connection is wrong, set it back to ${recorded}. ` +
        `To move this stack's resources to ${current} on purpose, ${move}: it applies each resource ` +
        `again on ${current} and records it there (docs/credentials.md, "Moving to another platform").`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// A create or update that applied part of its work
// ---------------------------------------------------------------------------------------------------

/**
 * A create or update that applied part of its work and then failed: the engine records `properties` as the
 * state of a resource that failed to initialize (so what was applied is not lost, and the next `pulumi up`
 * applies again), and shows `reasons`. Both providers pass it on that way: the dynamic provider through
 * the error's `id` and `properties`, the plugin as gRPC `ErrorResourceInitFailed` (native/rpcErrors.ts).
 *
 * Every kind's failure reads the same: `<type>: <what>:`, one reason a line, then `next` when the kind
 * has more to say; a kind gives only its reasons and those words.
 */
export abstract class ResourceInitError<P extends object = Record<string, unknown>> extends Error {
  protected constructor(
    type: string,
    readonly id: string,
    readonly properties: P,
    readonly reasons: string[],
    words: { readonly what: string; readonly next?: string },
  ) {
    const next = words.next === undefined ? "" : `\n${words.next}`;
    super(`${type}: ${words.what}:\n  - ${reasons.join("\n  - ")}${next}`);
    this.name = new.target.name;
  }

  /** The same failure with more properties recorded (the platform, the dynamic provider's own key). */
  withProperties(more: Record<string, unknown>): ResourceInitError<P & Record<string, unknown>> {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as ResourceInitError<
      P & Record<string, unknown>
    >;
    Object.assign(copy, this, { properties: { ...this.properties, ...more } });
    Object.defineProperty(copy, "message", { value: this.message, enumerable: false, writable: true });
    Object.defineProperty(copy, "stack", { value: this.stack, enumerable: false, writable: true });
    return copy;
  }
}

/**
 * Thrown when some of a `UserRoles` map's entries could not be written. `properties` (the kind's state)
 * holds in `roles` exactly the entries applied, so the next `pulumi up` writes only what is left; `failed`
 * names each user whose write failed and what the platform (or the network) said.
 */
export class UserRolesPartialFailure<
  P extends object = Record<string, unknown>,
> extends ResourceInitError<P> {
  constructor(
    type: string,
    id: string,
    properties: P,
    failed: readonly { readonly userId: string; readonly reason: string }[],
    applied: number,
  ) {
    super(
      type,
      id,
      properties,
      failed.map(({ userId, reason }) => `user ${userId}: ${reason}`),
      {
        what:
          `${failed.length} of ${failed.length + applied} role write(s) failed; the ${applied} that ` +
          "succeeded are recorded, and the next `pulumi up` writes only the rest",
      },
    );
  }
}

/** What a provisioning's failure words of the kind's state: the platform's errors, what was provisioned. */
export interface ProvisioningReport {
  readonly errors: readonly {
    readonly code: string;
    readonly message: string;
    readonly ids: readonly string[];
  }[];
  readonly repoFileUrls?: Readonly<Record<string, string>>;
}

/**
 * Thrown when the platform reports errors while provisioning workflows and `allowPartialFailure` is false
 * (its default): the repositories that were provisioned stay in state instead of being lost.
 */
export class ProvisioningPartialFailure<
  P extends ProvisioningReport = ProvisioningReport & Record<string, unknown>,
> extends ResourceInitError<P> {
  constructor(type: string, id: string, properties: P) {
    const reasons = properties.errors.map(
      (e) => `${e.code}: ${e.message}${e.ids.length > 0 ? ` (ids: ${e.ids.join(", ")})` : ""}`,
    );
    const provisioned = Object.keys(properties.repoFileUrls ?? {}).length;
    super(type, id, properties, reasons, {
      what:
        `the platform reported ${reasons.length} error(s) while provisioning ` +
        `(${provisioned} repositor${provisioned === 1 ? "y was" : "ies were"} provisioned)`,
      next:
        "Fix the filters or the projects and run `pulumi up` again, or set allowPartialFailure: true " +
        "to record these errors in the resource's `errors` output instead of failing.",
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Which failures are shown as their message alone
// ---------------------------------------------------------------------------------------------------

/*
 * Which failures the package raises on purpose: the client's errors (every `CodeSecError`), a connection
 * that cannot be used (`CodeSecConnectionError`, `MissingCredentialsError`, `PlatformMismatchError`), a
 * create or update that applied part of its work (`ResourceInitError`: `UserRolesPartialFailure`,
 * `ProvisioningPartialFailure`), and
 * a resource step that cannot go on (`CodeSecResourceError`: an SCM app that is not connected, an import
 * the platform cannot serve). Their messages say what happened and what to do, so a user is shown the
 * message alone. Any other error is a bug, ours or a library's, and keeps its stack for the bug report.
 * Applied where errors leave the package: the dynamic provider's engine calls
 * (dynamic/serverErrorLines.ts), the native plugin's answers (native/rpcErrors.ts) and the functions'
 * Output form (functions/invokeOptions.ts).
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
