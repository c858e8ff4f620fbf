/**
 * How one of the ten operations becomes a Fastify route, the same way for all of them: method and path
 * from the catalogue (`api/operations.ts`), path parameters validated by their kind, body/query/response
 * schemas from `api/schemas`, then, in this order: injected faults of phase before, the rate limit when
 * one is set (429), authentication (401/403), schema validation (400), the operation's handler (which
 * checks deployment, role and existence), and injected faults of phase after (which replace the answer of
 * a completed operation).
 */
import { createHash } from "node:crypto";
import { Type, type TObject, type TSchema, type TString } from "@sinclair/typebox";
import type {
  FastifyContextConfig,
  FastifyRequest,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from "fastify";
import { OPERATIONS, type OperationKey, type OperationSpec, NumericId, OpaqueId } from "pulumi-codesec/api";
import { authenticate, requireScheme, type Caller } from "./auth";
import { apiError } from "./errors";
import { faultKind, type FaultInjector } from "./faults";
import { describeRate, type RateLimiter } from "./rateLimit";
import type { RequestTracker } from "./requestTracking";
import type { EmulatorStore } from "./store";
import type { EmulatorFastify, TypeBoxTypeProvider } from "./typeProvider";
import { pathOf } from "./urlPath";

/** What route handlers share. */
export interface EmulatorContext {
  store: EmulatorStore;
  faults: FaultInjector;
  /** The request log's view of each request (faults note what they did to an answer). */
  tracker: RequestTracker;
  /** The rate limit per credential, when one is set (default: none). */
  rateLimiter?: RateLimiter;
  now(): Date;
}

/** Schemas of an operation's route: from `api/schemas`, never defined here. */
export interface OperationSchemas {
  body?: TSchema;
  query?: TSchema;
  response: TSchema;
}

/** The path parameters' schema: each one a string of its kind (numeric or opaque id). */
type PathParams = TObject<Record<string, TString>>;

/** How Fastify's route schema is made from an operation's schemas (the type provider reads it). */
interface RouteSchema<S extends OperationSchemas> {
  params: PathParams;
  body: S["body"];
  querystring: S["query"];
}

/** A request of an operation whose schemas are `S`: body and query typed by them (./typeProvider). */
type OperationRequest<S extends OperationSchemas> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RouteSchema<S>,
  TypeBoxTypeProvider
>;

/** One call of an operation, as its handler sees it. */
export interface OperationCall<S extends OperationSchemas> {
  /** Path parameters, already validated (numeric ids are digit strings). */
  params: OperationRequest<S>["params"];
  /** The body, validated by `S["body"]` (undefined when the operation takes none). */
  body: OperationRequest<S>["body"];
  /** The query, validated by `S["query"]`. */
  query: OperationRequest<S>["query"];
  caller: Caller;
  request: FastifyRequest;
}

const callers = new WeakMap<FastifyRequest, Caller>();

/** `{deploymentId}` -> `:deploymentId` (Fastify's path syntax). */
export function fastifyPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ":$1");
}

/**
 * The rate limit's key for a request: a digest of its Authorization header (a request without one has the
 * digest of ""). One bucket per credential as sent, found without reading the store, and no credential
 * kept in clear.
 */
function credentialKey(authorization: string | undefined): string {
  return createHash("sha256")
    .update(authorization ?? "")
    .digest("base64url");
}

/** Throws 429 `RESOURCE_EXHAUSTED` with `Retry-After` when the request's credential is over the limit. */
function enforceRateLimit(limiter: RateLimiter, request: FastifyRequest): void {
  const decision = limiter.take(credentialKey(request.headers.authorization));
  if (decision.admitted) return;
  const seconds = decision.retryAfterSeconds;
  throw apiError(
    "RESOURCE_EXHAUSTED",
    `rate limit exceeded: at most ${describeRate(limiter.requestsPerSecond)} per credential; ` +
      `retry after ${seconds} s`,
    { "retry-after": String(seconds) },
  );
}

/** The params schema of an operation, derived from the catalogue's parameter kinds. */
function paramsSchema(operation: OperationSpec): PathParams | undefined {
  const entries = Object.entries(operation.pathParams);
  if (entries.length === 0) return undefined;
  return Type.Object(
    Object.fromEntries(entries.map(([name, kind]) => [name, kind === "numeric" ? NumericId : OpaqueId])),
    {
      additionalProperties: false,
    },
  );
}

/**
 * Registers operation `key` on `app`, answering what `handler` returns (serialized by `schemas.response`).
 */
export function operationRoute<S extends OperationSchemas>(
  app: EmulatorFastify,
  ctx: EmulatorContext,
  key: OperationKey,
  schemas: S,
  handler: (call: OperationCall<S>) => unknown,
): void {
  const operation: OperationSpec = OPERATIONS[key];
  const params = paramsSchema(operation);
  ctx.faults.registerResponseSchema(key, schemas.response);
  app.route<RouteGenericInterface, FastifyContextConfig, RouteSchema<S>>({
    method: operation.method,
    url: fastifyPath(operation.path),
    schema: {
      ...(params ? { params } : {}),
      ...(schemas.body ? { body: schemas.body } : {}),
      ...(schemas.query ? { querystring: schemas.query } : {}),
      response: { 200: schemas.response },
    } as RouteSchema<S>,
    config: { operation: key },
    onRequest: async (request, reply) => {
      const fault = ctx.faults.take(key, request.method, pathOf(request.url), "before");
      if (fault) {
        ctx.tracker.markFault(request, faultKind(fault));
        if ((await ctx.faults.applyBefore(fault, request, reply)) === "answered") return reply;
      }
      // Before authentication: a refused request reads nothing and changes nothing.
      if (ctx.rateLimiter) enforceRateLimit(ctx.rateLimiter, request);
      const caller = await authenticate(ctx.store, request.headers.authorization, ctx.now());
      requireScheme(caller, key);
      callers.set(request, caller);
      return undefined;
    },
    handler: async (request, reply) => {
      const caller = callers.get(request);
      if (!caller) throw new Error(`no caller resolved for ${request.method} ${request.url}`);
      const result = await handler({
        params: request.params,
        body: request.body,
        query: request.query,
        caller,
        request,
      });
      // Phase-after faults act only on an operation that completed: its change is applied and saved.
      const fault = ctx.faults.take(key, request.method, pathOf(request.url), "after");
      if (!fault) return result;
      ctx.tracker.markFault(request, faultKind(fault));
      return ctx.faults.applyAfter(fault, request, reply, result);
    },
  });
}
