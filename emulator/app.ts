/**
 * Assembles the Fastify application: strict JSON parsing, validation by the API's schemas (the client's
 * rules and words, ./requestValidation), error replies, request ids, the Host check and connection time
 * limits, then two encapsulated plugins: the ten operations with the request log, its counters, faults and
 * the optional rate limit (./apiRoutes), and the control surface under `/__emulator` (./controlRoutes).
 */
import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import { allowedHostNames, hostRefusal } from "./allowedHosts";
import { apiRoutes } from "./apiRoutes";
import { CONTROL_PREFIX, EmulatorControl } from "./control";
import { controlRoutes } from "./controlRoutes";
import { BODY_LIMIT_BYTES, apiError, installErrorHandler, sendApiError } from "./errors";
import { FaultInjector } from "./faults";
import type { EmulatorContext } from "./operationRoute";
import { RateLimiter } from "./rateLimit";
import { RequestCounter } from "./requestCounts";
import { RequestLog, type RequestLogEntry } from "./requestLog";
import { schemaValidatorCompiler } from "./requestValidation";
import { RequestTracker } from "./requestTracking";
import type { EmulatorStore } from "./store";
import {
  closeSilentConnections,
  resolveTimeouts,
  serverTimeoutOptions,
  type ConnectionTimeouts,
} from "./timeouts";
import type { EmulatorFastify, TypeBoxTypeProvider } from "./typeProvider";
import { pathOf } from "./urlPath";

/** The assembled emulator: the Fastify app and the pieces the handle exposes. */
export interface EmulatorApp {
  app: EmulatorFastify;
  control: EmulatorControl;
  faults: FaultInjector;
  tracker: RequestTracker;
}

/** Keys JSON bodies may never carry (prototype pollution). */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Where the app's lines go: `report` one per finished API request, `warn` internal errors (always shown). */
export interface EmulatorOutput {
  // Function-typed properties, not methods: the app takes them apart and calls them on their own.
  report: (line: string) => void;
  warn: (line: string) => void;
}

/** How the app behaves (beyond its data and its output). */
export interface EmulatorAppOptions {
  /** Requests per second per credential on the ten operations; absent: no limit. */
  rateLimit?: number;
  /** The host names it answers to (`Host` header), normalized (./allowedHosts); default: loopback only. */
  allowedHosts?: ReadonlySet<string>;
  /** Connection time limits; default DEFAULT_TIMEOUTS. */
  timeouts?: ConnectionTimeouts;
}

/** Whether a path is the control surface's (for routing errors, which come before any route or plugin). */
function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

/** Builds the app on `store`. */
export function createEmulatorApp(
  store: EmulatorStore,
  output: EmulatorOutput,
  options: EmulatorAppOptions = {},
): EmulatorApp {
  const { report, warn } = output;
  const allowedHosts = options.allowedHosts ?? allowedHostNames("127.0.0.1");
  const app = Fastify({
    ...serverTimeoutOptions(options.timeouts ?? resolveTimeouts()),
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    // Request ids are always the emulator's own: a client-sent x-request-id is not trusted.
    requestIdHeader: false,
    routerOptions: { maxParamLength: 1000 },
    forceCloseConnections: true,
    return503OnClosing: true,
    // Errors raised while routing (before any hook runs), e.g. a path that is not valid percent-encoding.
    frameworkErrors: (error, request, reply) => {
      reply.header("x-request-id", request.id);
      const misdirected = hostRefusal(request.headers.host, allowedHosts);
      if (misdirected) {
        void sendApiError(request, reply, misdirected);
        return;
      }
      // No hook runs for these requests, so they enter the request log here.
      if (!isControlPath(pathOf(request.url))) tracker.arrive(request, reply, null);
      const message =
        error.code === "FST_ERR_BAD_URL"
          ? `the path ${JSON.stringify(pathOf(request.url))} is not valid percent-encoding`
          : error.message;
      void sendApiError(request, reply, apiError("INVALID_ARGUMENT", message));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Requests are checked by the API's own TypeBox checks and worded by its one formatter, as the client
  // checks and words its arguments (no Ajv: it would be a second rule set with its own words).
  app.setValidatorCompiler(schemaValidatorCompiler);
  closeSilentConnections(app.server);

  const requestLog = new RequestLog();
  const requestCounter = new RequestCounter();
  const faults = new FaultInjector();
  const tracker = new RequestTracker(requestLog, requestFinished);
  const rateLimiter = options.rateLimit !== undefined ? new RateLimiter(options.rateLimit) : undefined;
  const ctx: EmulatorContext = {
    store,
    faults,
    tracker,
    ...(rateLimiter ? { rateLimiter } : {}),
    now: () => new Date(),
  };
  const control = new EmulatorControl({ store, faults, requestLog, requestCounter, rateLimiter });

  function requestFinished(entry: RequestLogEntry): void {
    requestCounter.add(entry);
    reportRequest(entry);
  }

  function reportRequest(entry: RequestLogEntry): void {
    const outcome =
      entry.abandoned === true
        ? `${entry.status === 0 ? "" : `${entry.status}, `}abandoned by the client`
        : entry.status === 0
          ? "dropped"
          : String(entry.status);
    report(`${entry.method} ${entry.path} -> ${outcome}${entry.fault ? ` (fault: ${entry.fault})` : ""}`);
  }

  // JSON only. An empty body is "no body" (`subscribeScmWebhook` has none); anything unparsable answers 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === "") {
      done(null, undefined);
      return;
    }
    try {
      done(
        null,
        JSON.parse(source, (key: string, value: unknown) => {
          if (FORBIDDEN_KEYS.has(key)) throw new SyntaxError(`the key "${key}" is not allowed`);
          return value;
        }),
      );
    } catch (error) {
      done(
        apiError("INVALID_ARGUMENT", `request body is not valid JSON: ${(error as Error).message}`),
        undefined,
      );
    }
  });

  installErrorHandler(app, (error) => warn(`internal error: ${error.stack ?? error.message}`));

  // Hooks of every route, API and control alike; the rest is each plugin's own.
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    // Before anything else: a request addressed to another host (DNS rebinding) reads and logs nothing.
    const misdirected = hostRefusal(request.headers.host, allowedHosts);
    if (misdirected) throw misdirected;
  });
  void app.register(apiRoutes, { ctx });
  void app.register(controlRoutes, { prefix: CONTROL_PREFIX, control });

  return { app, control, faults, tracker };
}
