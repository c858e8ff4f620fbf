/**
 * Mocha helpers for tests that run against the local emulator.
 *
 * @example
 * describe("my feature", () => {
 *   const emulator = useEmulator();
 *   it("reads the current user", async () => {
 *     const res = await callApi(emulator(), "GET", "/api/auth/users/current");
 *     expect(res.status).to.equal(200);
 *   });
 * });
 */
// The source (`emulator/index`), not the directory: the package's `main` is its build in dist/, which may be
// older than the working tree when mocha runs without a build.
import {
  startEmulator,
  type EmulatorHandle,
  type RequestLogEntry,
  type StartEmulatorOptions,
} from "../../emulator/index";
import { OPERATIONS, isMutating } from "../../api/operations";

/**
 * The emulator's logged requests (since its last clearRequests) to operations that change something, each
 * as `format` words it (default `operation:status`, e.g. `updateUserRole:200`), oldest first.
 * listNotificationRules's POST only reads: it is not one.
 */
export function writes(
  emulator: EmulatorHandle,
  format: (request: RequestLogEntry) => string = (r) => `${r.operation}:${r.status}`,
): string[] {
  return emulator.control
    .requests()
    .filter((r) => r.operation !== null && isMutating(OPERATIONS[r.operation]))
    .map(format);
}

/** A user's role in a deployment (by default the emulator's sample one), as the emulator holds it now. */
export function roleOf(
  emulator: EmulatorHandle,
  userId: string,
  deploymentId = emulator.deploymentId,
): string | undefined {
  return emulator.control.state().users.find((u) => u.id === userId)?.roles[deploymentId];
}

/**
 * Starts one emulator for the enclosing suite (quiet, free port on 127.0.0.1), resets it to its fixtures
 * before every test (faults and request log cleared too), and closes it after the suite. Returns a getter
 * for the handle, usable inside tests and hooks.
 */
export function useEmulator(options: StartEmulatorOptions = {}): () => EmulatorHandle {
  let handle: EmulatorHandle | undefined;
  before(async () => {
    handle = await startEmulator({ quiet: true, ...options });
  });
  beforeEach(() => {
    handle?.control.reset();
  });
  after(async () => {
    await handle?.close();
    handle = undefined;
  });
  return () => {
    if (!handle) throw new Error("useEmulator(): the emulator exists only while the suite's tests run");
    return handle;
  };
}

/** What `callApi` resolves to. */
export interface ApiResponse {
  status: number;
  headers: Map<string, string>;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
  text: string;
}

/** Options of `callApi`. */
export interface CallOptions {
  /** JSON body (serialized); use `rawBody` to send something else. */
  body?: unknown;
  rawBody?: string;
  /** Bearer credential; default the handle's apiToken; `null` sends no Authorization header. */
  credential?: string | null;
  headers?: Record<string, string>;
}

/** Calls the emulator's API and returns status, headers and the parsed body (never throws on 4xx/5xx). */
export async function callApi(
  handle: EmulatorHandle,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  const credential = options.credential === undefined ? handle.apiToken : options.credential;
  if (credential !== null) headers.authorization = `Bearer ${credential}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  Object.assign(headers, options.headers);
  const response = await fetch(`${handle.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const responseHeaders = new Map<string, string>();
  response.headers.forEach((value, name) => responseHeaders.set(name, value));
  return { status: response.status, headers: responseHeaders, json, text };
}

/**
 * Calls the control surface (`/__emulator<path>`) as a script should: without a credential, and with a
 * JSON content type on every method but GET, as the control surface requires of the routes that change
 * state (it refuses a browser's cross-site form or text/plain POST).
 */
export function callControl(
  handle: EmulatorHandle,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse> {
  return callApi(handle, method, `/__emulator${path}`, {
    credential: null,
    ...(body !== undefined ? { body } : {}),
    ...(method === "GET" ? {} : { headers: { "content-type": "application/json" } }),
  });
}

/** The `error` member of an error reply (throws when the body does not have the error shape). */
export function errorOf(response: ApiResponse): { code: string; message: string; requestId?: string } {
  const body = response.json as { error?: { code: string; message: string; requestId?: string } } | undefined;
  if (!body?.error) throw new Error(`expected an error body, got ${response.status} ${response.text}`);
  return body.error;
}
