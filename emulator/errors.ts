/**
 * Error replies. Every failure the emulator answers has the body shape `ApiErrorBody`
 * (`{"error":{"code","message","requestId"}}`) and the same request id in the `x-request-id` header;
 * this module turns thrown `ApiError`s (request validation's among them, ./requestValidation), Fastify's
 * body-parsing errors, unknown routes and unexpected exceptions into that shape.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ApiErrorBody, OPERATIONS, REQUEST_BODY_LIMIT_BYTES } from "pulumi-codesec/api";
import { pathOf } from "./urlPath";

/** Largest request body accepted (the platform's limit, from the catalogue). Larger bodies answer 400. */
export const BODY_LIMIT_BYTES = REQUEST_BODY_LIMIT_BYTES;

/** Error codes the emulator answers, with the HTTP status each one travels with. */
export const ERROR_STATUS = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  FAILED_PRECONDITION: 409,
  MISDIRECTED_REQUEST: 421,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error that becomes an API error reply: status, machine-readable code, clear message, extra headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Builds an `ApiError` from one of the emulator's codes, with the status that code travels with. */
export function apiError(code: ErrorCode, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(ERROR_STATUS[code], code, message, headers);
}

/** The code an injected fault answers for a status when the fault names none (gRPC-style, as the rest). */
export function codeForStatus(status: number): string {
  const known = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => ERROR_STATUS[code] === status);
  if (known) return known;
  if (status === 502) return "UNAVAILABLE";
  if (status === 410) return "GONE";
  return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
}

/** The body of an error reply. */
export function errorBody(code: string, message: string, requestId: string): ApiErrorBody {
  return { error: { code, message, requestId } };
}

/** Sends `error` on `reply` (headers included). */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type("application/json; charset=utf-8")
    .send(errorBody(error.code, error.message, request.id));
}

/** Matches a concrete path against an operation's template (`{param}` = one non-empty segment). */
export function templateMatches(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(path);
}

/** Maps a Fastify/parse error (or anything unexpected) to the ApiError it answers as. */
export function toApiError(error: FastifyError | Error, request: FastifyRequest): ApiError {
  // Request validation failures arrive as ApiErrors already (./requestValidation).
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return apiError(
        "INVALID_ARGUMENT",
        `request body is larger than the ${BODY_LIMIT_BYTES / 1024} KiB (${BODY_LIMIT_BYTES} bytes) limit`,
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return apiError(
        "UNSUPPORTED_MEDIA_TYPE",
        `content-type ${JSON.stringify(request.headers["content-type"] ?? "")} is not supported; send application/json`,
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return apiError("INVALID_ARGUMENT", `request body is not valid JSON: ${fastifyError.message}`);
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError(status, codeForStatus(status), fastifyError.message);
  }
  return apiError("INTERNAL", "internal emulator error; see the emulator's stderr for details");
}

/**
 * Answers a request whose path matches no route: 405 with `Allow` when the path matches an operation with
 * another method, else 404.
 */
export function answerNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = pathOf(request.url);
  const allowed = Object.values(OPERATIONS)
    .filter((op) => templateMatches(op.path, path))
    .map((op) => op.method);
  if (allowed.length > 0) {
    return sendApiError(
      request,
      reply,
      apiError(
        "METHOD_NOT_ALLOWED",
        `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
        {
          allow: allowed.join(", "),
        },
      ),
    );
  }
  return sendApiError(
    request,
    reply,
    apiError("NOT_FOUND", `no operation matches ${request.method} ${path}`),
  );
}

/** Installs the error handler: every error becomes an `ApiErrorBody` answer; a 5xx is also reported. */
export function installErrorHandler(app: FastifyInstance, onInternalError: (error: Error) => void): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const apiErr = toApiError(error, request);
    if (apiErr.status >= 500) onInternalError(error);
    return sendApiError(request, reply, apiErr);
  });
}
