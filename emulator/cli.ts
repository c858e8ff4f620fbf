#!/usr/bin/env node
/**
 * `codesec-emulator`: runs the local platform emulator until SIGINT/SIGTERM.
 *
 * With `--json`, stdout carries exactly one line once the emulator listens: JSON with baseUrl, apiToken,
 * jwt, deploymentId and sample (scripts read it); everything else goes to stderr. Without `--json`, a
 * human-readable banner goes to stdout; it never shows a credential.
 */
import { parseArgs } from "node:util";
import { isHostName } from "./allowedHosts";
import { exampleFixturesPath } from "./fixtureFiles";
import { describeRate, rateLimitProblem } from "./rateLimit";
import { startEmulator, type EmulatorHandle } from "./index";
import { DEFAULT_TIMEOUTS, type ConnectionTimeouts } from "./timeouts";

const HELP = () => `Usage: codesec-emulator [options]

Local emulator of the code-security platform's web API.

Options:
  --port N         TCP port (0 = any free port; default 0)
  --host HOST      interface to bind (default 127.0.0.1)
  --fixtures FILE  JSON fixture set to start from (default: built-in deterministic fixtures); every
                   collection is optional (absent = empty): a deployment, an admin user and its API
                   token are enough. Example: ${exampleFixturesPath()}
  --state FILE     persist the state in FILE and FILE.journal (loaded at start when present; every
                   change is saved before its answer)
  --rate-limit N   answer 429 with Retry-After beyond N requests per second per credential, as the
                   platform does (the ten operations only; default: no limit)
  --allow-host NAME
                   answer requests addressed to NAME too (repeatable). By default only requests whose
                   Host header is 127.0.0.1, localhost, [::1] or the --host value are answered; any
                   other answers 421, so that a web page cannot reach the emulator (DNS rebinding)
  --headers-timeout MS
                   a request head must arrive within MS milliseconds, else 408 and the connection is
                   closed (default ${DEFAULT_TIMEOUTS.headersMs})
  --request-timeout MS
                   a whole request, head and body, within MS (default ${DEFAULT_TIMEOUTS.requestMs}; else 408, closed)
  --keep-alive-timeout MS
                   close a kept-alive connection idle for MS between requests (default ${DEFAULT_TIMEOUTS.keepAliveMs})
  --socket-timeout MS
                   close a connection on which nothing moves for MS, whatever its state: a stalled
                   answer, a client that reads nothing (default ${DEFAULT_TIMEOUTS.socketIdleMs})
  --json           when ready, print exactly one line of JSON (baseUrl, apiToken, jwt, deploymentId,
                   sample) on stdout and nothing else there
  --quiet          do not log requests to stderr
  --help           show this help

Control surface for tests and demos (no credential needed) under <baseUrl>/__emulator/:
GET <baseUrl>/__emulator/ lists its routes (method, path, what each does) as JSON. Every
route but a GET changes state and needs "content-type: application/json".
`;

/** The time-limit flags and the limit each one sets. */
const TIMEOUT_FLAGS: Readonly<Record<string, keyof ConnectionTimeouts>> = {
  "headers-timeout": "headersMs",
  "request-timeout": "requestMs",
  "keep-alive-timeout": "keepAliveMs",
  "socket-timeout": "socketIdleMs",
};

/** Parsed command line. */
export interface CliOptions {
  port: number;
  host: string;
  fixtures?: string;
  state?: string;
  /** Requests per second per credential; absent: no limit. */
  rateLimit?: number;
  /** Host names answered besides the loopback names and `host`. */
  allowHosts: string[];
  /** The time limits given on the command line (the others keep their defaults). */
  timeouts: Partial<ConnectionTimeouts>;
  json: boolean;
  quiet: boolean;
  help: boolean;
}

/** Parses argv (without node and script); throws an Error with a usage message on bad input. */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      fixtures: { type: "string" },
      state: { type: "string" },
      "rate-limit": { type: "string" },
      "allow-host": { type: "string", multiple: true },
      ...Object.fromEntries(Object.keys(TIMEOUT_FLAGS).map((flag) => [flag, { type: "string" as const }])),
      json: { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const portText = values.port ?? "0";
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got ${JSON.stringify(portText)}`);
  }
  const rateText = values["rate-limit"];
  const rateLimit = rateText === undefined ? undefined : Number(rateText);
  if (rateText !== undefined && (rateText.trim() === "" || rateLimitProblem(rateLimit ?? Number.NaN))) {
    throw new Error(
      `--rate-limit must be a positive number of requests per second, got ${JSON.stringify(rateText)}`,
    );
  }
  const allowHosts = values["allow-host"] ?? [];
  for (const name of allowHosts) {
    if (!isHostName(name)) {
      throw new Error(
        `--allow-host takes a host name or IP address (no port, no scheme), got ${JSON.stringify(name)}`,
      );
    }
  }
  const timeouts: Partial<ConnectionTimeouts> = {};
  for (const [flag, name] of Object.entries(TIMEOUT_FLAGS)) {
    const text = (values as Record<string, unknown>)[flag];
    if (typeof text !== "string") continue;
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 2_147_483_647) {
      throw new Error(`--${flag} must be a whole number of milliseconds from 1, got ${JSON.stringify(text)}`);
    }
    timeouts[name] = Number(text);
  }
  return {
    port: Number(portText),
    host: values.host ?? "127.0.0.1",
    ...(values.fixtures !== undefined ? { fixtures: values.fixtures } : {}),
    ...(values.state !== undefined ? { state: values.state } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    allowHosts,
    timeouts,
    json: values.json ?? false,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
  };
}

function banner(handle: EmulatorHandle, options: CliOptions): string {
  const s = handle.sample;
  return [
    `codesec-emulator listening on ${handle.baseUrl}`,
    `  deployment ${handle.deploymentId}; admin user ${s.userId}, member ${s.memberUserId}`,
    `  project ${s.projectId}, branch ${s.branchId}, scan ${s.scanId}, SCM configuration ${s.scmConfigId}`,
    `  SCM app request ${s.scmAppRequestId}`,
    `  state: ${options.state ?? "in memory only"}; fixtures: ${options.fixtures ?? "built-in defaults"}`,
    `  rate limit: ${options.rateLimit !== undefined ? `${describeRate(options.rateLimit)} per credential` : "none"}`,
    "  credentials are secrets and are not shown here; run with --json to receive them",
    `  control surface (tests/demos only): ${handle.baseUrl}/__emulator/`,
    "  press Ctrl+C to stop",
    "",
  ].join("\n");
}

/** Runs the CLI; resolves with the exit code once the emulator has stopped (or failed to start). */
export async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`codesec-emulator: ${(error as Error).message}\n\n${HELP()}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(HELP());
    return 0;
  }
  let handle: EmulatorHandle;
  try {
    handle = await startEmulator({
      port: options.port,
      host: options.host,
      ...(options.fixtures !== undefined ? { fixtures: options.fixtures } : {}),
      ...(options.state !== undefined ? { stateFile: options.state } : {}),
      ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
      allowedHosts: options.allowHosts,
      timeouts: options.timeouts,
      quiet: options.quiet,
    });
  } catch (error) {
    process.stderr.write(`codesec-emulator: cannot start: ${(error as Error).message}\n`);
    return 1;
  }
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.stderr.write(`codesec-emulator: ${signal} received, stopping\n`);
      handle.close().then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`codesec-emulator: error while stopping: ${(error as Error).message}\n`);
          resolve(1);
        },
      );
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  // Only now that a signal stops it cleanly: a script may send one as soon as it reads the line below.
  if (options.json) {
    const ready = {
      baseUrl: handle.baseUrl,
      apiToken: handle.apiToken,
      jwt: handle.jwt,
      deploymentId: handle.deploymentId,
      sample: handle.sample,
    };
    process.stdout.write(`${JSON.stringify(ready)}\n`);
  } else {
    process.stdout.write(banner(handle, options));
  }
  return stopped;
}

/** Runs `main` on this process's arguments and sets the exit code (the bin shim's entry). */
export function runCommandLine(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`codesec-emulator: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) runCommandLine();
