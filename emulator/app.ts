/**
 * Assembles the Fastify application: strict JSON parsing and validation, error replies, request ids,
 * the request log, the ten operations and the control surface.
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import type { OperationKey } from "../sdk/operations";
import { CONTROL_PREFIX, EmulatorControl, registerControlRoutes } from "./control";
import { BODY_LIMIT_BYTES, apiError, installErrorReplies, sendApiError } from "./errors";
import { FaultInjector } from "./faults";
import { faultKindOf, pathOf, type EmulatorContext } from "./operationRoute";
import { RequestLog, type RequestLogEntry } from "./requestLog";
import { registerNotificationRuleRoutes } from "./routes/notificationRules";
import { registerProvisioningRoutes } from "./routes/provisioning";
import { registerScanRoutes } from "./routes/scans";
import { registerScmRoutes } from "./routes/scm";
import { registerUserRoutes } from "./routes/users";
import type { EmulatorStore } from "./store";

/** The assembled emulator: the Fastify app and the pieces the handle exposes. */
export interface EmulatorApp {
  app: FastifyInstance;
  control: EmulatorControl;
  faults: FaultInjector;
}

/** Keys JSON bodies may never carry (prototype pollution). */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Where the app's lines go: `report` one per answered API request, `warn` internal errors (always shown). */
export interface EmulatorOutput {
  report(line: string): void;
  warn(line: string): void;
}

/** Builds the app on `store`. */
export function createEmulatorApp(store: EmulatorStore, output: EmulatorOutput): EmulatorApp {
  const { report, warn } = output;
  const app = Fastify({
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
      const message =
        error.code === "FST_ERR_BAD_URL"
          ? `the path ${JSON.stringify(pathOf(request.url))} is not valid percent-encoding`
          : error.message;
      void sendApiError(request, reply, apiError("INVALID_ARGUMENT", message));
    },
    ajv: {
      customOptions: {
        // Reject, never silently drop or convert: unknown fields and wrong JSON types answer 400.
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        allErrors: false,
        verbose: true,
      },
    },
  });

  const requestLog = new RequestLog();
  const faults = new FaultInjector();
  const ctx: EmulatorContext = {
    store,
    faults,
    requestLog,
    recordRequest(entry: RequestLogEntry) {
      requestLog.record(entry);
      report(
        `${entry.method} ${entry.path} -> ${entry.status === 0 ? "dropped" : entry.status}${entry.fault ? ` (fault: ${entry.fault})` : ""}`,
      );
    },
    now: () => new Date(),
  };
  const control = new EmulatorControl(store, faults, requestLog);

  // JSON only. An empty body is "no body" (operation 5 has none); anything unparsable answers 400.
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

  installErrorReplies(app, (error) => warn(`internal error: ${error.stack ?? error.message}`));

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    const path = pathOf(request.url);
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return;
    const operation = (request.routeOptions.config as { operation?: OperationKey }).operation ?? null;
    const fault = faultKindOf(request);
    ctx.recordRequest({
      method: request.method,
      path,
      status: reply.statusCode,
      operation,
      at: new Date(Date.now() - reply.elapsedTime).toISOString(),
      requestId: request.id,
      ...(fault ? { fault } : {}),
    });
  });

  registerUserRoutes(app, ctx);
  registerProvisioningRoutes(app, ctx);
  registerScmRoutes(app, ctx);
  registerScanRoutes(app, ctx);
  registerNotificationRuleRoutes(app, ctx);
  registerControlRoutes(app, control);

  return { app, control, faults };
}
