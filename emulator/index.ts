/**
 * Local emulator of the code-security platform's web API (the ten operations of the spec), for the demo,
 * examples and tests. `startEmulator()` starts one on a free port of 127.0.0.1 and resolves to a handle
 * with its address, ready-to-use credentials and sample ids.
 *
 * @example
 * const emulator = await startEmulator({ quiet: true });
 * const res = await fetch(`${emulator.baseUrl}/api/auth/users/current`, {
 *   headers: { authorization: `Bearer ${emulator.apiToken}` },
 * });
 * await emulator.close();
 */
import type { AddressInfo } from "node:net";
import { allowedHostNames, isHostName } from "./allowedHosts";
import { signUserJwt } from "./auth";
import { createEmulatorApp } from "./app";
import type { EmulatorControl } from "./control";
import { defaultFixtures } from "./defaultFixtures";
import { loadFixtureFile, parseFixtureSet } from "./fixtureFiles";
import { type FixtureFile, type FixtureSet } from "./fixtureSchema";
import { rateLimitProblem } from "./rateLimit";
import { resolveSample, type EmulatorSample } from "./sample";
import { EmulatorStore } from "./store";
import { resolveTimeouts, type ConnectionTimeouts } from "./timeouts";

export { ApiError } from "./errors";
export { EmulatorControl } from "./control";
export type {
  CredentialRequest,
  CredentialRevocation,
  GeneratedNotificationRules,
  NotificationRulesGeneration,
  ScmAppEdit,
  ScmAppRequestCreate,
  UserRoleEdit,
} from "./control";
export type { RequestCounts } from "./requestCounts";
export { DEFAULT_TIMEOUTS, type ConnectionTimeouts } from "./timeouts";
export type { ArmedFault, FaultPhase, FaultSpec } from "./faults";
export type { FaultKind, RequestLogEntry } from "./requestLog";
export type { RedactedState } from "./store";
export type { EmulatorSample } from "./sample";
export { defaultFixtures } from "./defaultFixtures";
export { exampleFixturesPath, loadFixtureFile } from "./fixtureFiles";
export { type FixtureFile, type FixtureSet } from "./fixtureSchema";

/** Options of `startEmulator`. */
export interface StartEmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /**
   * A fixture set, or the path of a JSON fixture file (every collection optional, absent = empty); default:
   * the deterministic default fixtures.
   */
  fixtures?: string | FixtureFile;
  /**
   * Persist the state here: loaded when the file exists (else seeded from the fixtures); every change is
   * durable before its answer (a line in `<file>.journal`, folded into the file from time to time).
   */
  stateFile?: string;
  /** Print nothing (by default one line per request goes to stderr; never a credential). */
  quiet?: boolean;
  /**
   * Enforce a rate limit, as the platform does: at most this many requests per second per credential (one
   * token bucket per distinct Authorization header, holding one second's worth, at least 1, refilled
   * continuously) on the ten operations; the control surface is not counted. Over it: 429
   * `RESOURCE_EXHAUSTED` with `Retry-After` (whole seconds, at least 1), before authentication, so a
   * refused request changes nothing. Default: no limit.
   */
  rateLimit?: number;
  /**
   * Host names it answers to besides 127.0.0.1, localhost, [::1] and `host` (the `Host` header of every
   * request must name one of them, any port; others answer 421 `MISDIRECTED_REQUEST`, so that a web page
   * cannot reach it by DNS rebinding). For a name it is reached by on purpose, e.g. a container's service
   * name. Default: none.
   */
  allowedHosts?: string[];
  /**
   * Connection time limits in milliseconds, each optional (defaults: `headersMs` 10,000, `requestMs`
   * 30,000, `keepAliveMs` 5,000, `socketIdleMs` 180,000): a request head or a whole request that takes
   * longer is answered 408 and its connection closed, an idle kept-alive connection is closed, and so is
   * a connection on which nothing moves for `socketIdleMs` (a stalled answer, a client that reads nothing).
   */
  timeouts?: Partial<ConnectionTimeouts>;
}

/** A running emulator. */
export interface EmulatorHandle {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  /** Web-API token of the sample admin in `deploymentId` (a secret). */
  apiToken: string;
  /** User JWT of the same admin, valid for 24 hours (a secret). */
  jwt: string;
  /** The sample deployment ("1001" with the default fixtures). */
  deploymentId: string;
  /** Ids of one object of each kind in the loaded data. */
  sample: EmulatorSample;
  /**
   * In-process control surface: reset, faults, request log and request counters, out-of-band edits,
   * credentials, revocation, state, and generated notification rules for a large store.
   */
  control: EmulatorControl;
  /** Stops the server (open connections are closed); safe to call twice. */
  close(): Promise<void>;
}

function resolveFixtures(fixtures: StartEmulatorOptions["fixtures"]): FixtureSet {
  if (fixtures === undefined) return defaultFixtures();
  if (typeof fixtures === "string") return loadFixtureFile(fixtures);
  return parseFixtureSet(fixtures, "the fixtures option");
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address === "::ffff:127.0.0.1";
}

/** Starts an emulator and resolves once it listens. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`port must be an integer 0-65535, got ${port}`);
  if (options.rateLimit !== undefined) {
    const problem = rateLimitProblem(options.rateLimit);
    if (problem !== undefined) throw new Error(`rateLimit ${problem}`);
  }
  const timeouts = resolveTimeouts(options.timeouts);
  for (const name of options.allowedHosts ?? []) {
    if (!isHostName(name))
      throw new Error(
        `allowedHosts: ${JSON.stringify(name)} is not a host name or IP address (no port, no scheme)`,
      );
  }
  const store = EmulatorStore.open({
    fixtures: resolveFixtures(options.fixtures),
    stateFile: options.stateFile,
  });
  const warn = (line: string) => {
    process.stderr.write(`[codesec-emulator] ${line}\n`);
  };
  if (store.ignoredTornRecord) {
    warn(
      `the journal of ${options.stateFile ?? ""} ended with a change cut short by a crash; it was ignored ` +
        "(its request was never answered)",
    );
  }
  const report = options.quiet ? () => undefined : warn;
  const { app, control, faults, tracker } = createEmulatorApp(
    store,
    { report, warn },
    {
      ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
      allowedHosts: allowedHostNames(host, options.allowedHosts),
      timeouts,
    },
  );
  const resolved = resolveSample(store);
  await app.listen({ port, host });
  const address = app.server.address() as AddressInfo;
  if (!isLoopback(address.address)) {
    warn(
      `listening on ${address.address}, beyond this machine: the /__emulator/ control surface has no ` +
        "authentication (anyone who can reach it can mint credentials); bind 127.0.0.1 unless you mean it",
    );
  }
  // A wildcard bind is reachable on loopback; the URL names that rather than the wildcard.
  const reachable =
    address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  const hostInUrl = address.family === "IPv6" ? `[${reachable}]` : reachable;
  const jwt = await signUserJwt(store.signingKey, {
    userId: resolved.sample.userId,
    deploymentId: resolved.deploymentId,
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${hostInUrl}:${address.port}`,
    apiToken: resolved.apiTokenValue,
    jwt,
    deploymentId: resolved.deploymentId,
    sample: resolved.sample,
    control,
    close() {
      closing ??= (async () => {
        tracker.beginClose();
        faults.wakeAll();
        await faults.endStalled();
        await app.close();
      })();
      return closing;
    },
  };
}
