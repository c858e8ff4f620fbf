/**
 * Fault injection, so that client retry and error handling can be tested against the emulator, for the
 * next N requests that match an operation or a method and path. Phase `before` replaces the operation: an
 * error status (with Retry-After), added latency, a dropped connection, or a 200 with a broken JSON body.
 * Phase `after` lets the operation run to completion (its change applied and saved) and then replaces its
 * answer: the same kinds, or the real body cut short (`truncate`), stopped half-way (`stall`) or missing
 * one field (`omitField`).
 */
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { OPERATIONS, type OperationKey } from "pulumi-codesec/api";
import { ApiError, apiError, codeForStatus, sendApiError, templateMatches } from "./errors";
import {
  destroyConnection,
  sendMalformed,
  sendStalled,
  sendTruncated,
  sendWithoutField,
} from "./faultAnswers";
import { fieldPathSegments, schemaAllowsField } from "./fieldPath";
import type { FaultKind } from "./requestLog";

export { MALFORMED_BODY } from "./faultAnswers";

const OPERATION_KEYS = Object.keys(OPERATIONS) as OperationKey[];

/** The longest wait a fault may add (`latencyMs`). */
export const LATENCY_MAX_MS = 120_000;

/** Body of `POST /__emulator/faults` (and argument of `control.addFault`). */
export const FaultSpec = Type.Object(
  {
    /** Match this operation (a key of OPERATIONS in api/operations.ts). */
    operation: Type.Optional(
      Type.Union(
        OPERATION_KEYS.map((key) => Type.Literal(key)),
        { description: `one of ${OPERATION_KEYS.join(", ")}` },
      ),
    ),
    /** Match this HTTP method (any when absent). */
    method: Type.Optional(Type.String({ pattern: "^[A-Za-z]+$", description: "an HTTP method such as GET" })),
    /** Match this path: a concrete path (`/api/v2/deployments/1001/scans/3001`) or an operation's template. */
    path: Type.Optional(Type.String({ pattern: "^/", description: "a path starting with /" })),
    /**
     * `before` (default): the fault replaces the operation. `after`: the operation runs to completion (its
     * change is applied and saved), then the fault replaces its answer.
     */
    phase: Type.Optional(
      Type.Union([Type.Literal("before"), Type.Literal("after")], { description: '"before" or "after"' }),
    ),
    /** Answer this status (400-599) with an error body instead of running the operation. */
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    /** Error code of that answer (default: the code for the status, e.g. RESOURCE_EXHAUSTED for 429). */
    code: Type.Optional(Type.String({ minLength: 1 })),
    /** Error message of that answer. */
    message: Type.Optional(Type.String({ minLength: 1 })),
    /** Retry-After header of that answer (seconds or an HTTP date). */
    retryAfter: Type.Optional(Type.String({ minLength: 1 })),
    /** Wait this long before doing anything else (alone: a slow but otherwise normal answer). */
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: LATENCY_MAX_MS })),
    /** Destroy the connection without an answer. */
    drop: Type.Optional(Type.Boolean()),
    /** Answer 200 with a body that is not valid JSON. */
    malformed: Type.Optional(Type.Boolean()),
    /** Phase after only: 200 with the real body's Content-Length, half of its bytes, then a destroyed connection. */
    truncate: Type.Optional(Type.Boolean()),
    /** Phase after only: 200 with the real body's Content-Length, half of its bytes, then nothing more. */
    stall: Type.Optional(Type.Boolean()),
    /** Phase after only: 200 with the real body minus the field at this dotted path (e.g. `scan.status`). */
    omitField: Type.Optional(
      Type.String({ pattern: "^[^.]+(\\.[^.]+)*$", description: "a dotted field path such as scan.status" }),
    ),
    /** How many matching requests the fault affects (default 1). */
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type FaultSpec = Static<typeof FaultSpec>;

/** When a fault acts: before the operation runs, or once it has completed. */
export type FaultPhase = NonNullable<FaultSpec["phase"]>;

/** A fault that is armed: its spec, an id, and how many more requests it affects. */
export interface ArmedFault extends FaultSpec {
  id: string;
  remaining: number;
}

/** The answers a fault can replace the real one with (besides latency, which only delays). */
const ANSWERS = ["status", "drop", "malformed", "truncate", "stall", "omitField"] as const;
/** Answers that need the operation's real body, so they exist in phase `after` only. */
const NEED_REAL_BODY: ReadonlySet<FaultKind> = new Set(["truncate", "stall", "omitField"]);

function answersOf(spec: FaultSpec): Array<(typeof ANSWERS)[number]> {
  return ANSWERS.filter((answer) => {
    const value = spec[answer];
    return typeof value === "boolean" ? value : value !== undefined;
  });
}

/** What a fault does to an answer, as the request log names it. */
export function faultKind(spec: FaultSpec): FaultKind {
  return answersOf(spec)[0] ?? "latency";
}

/** The operations a fault can match (every one when it names neither operation nor path). */
function candidateOperations(spec: FaultSpec): OperationKey[] {
  return OPERATION_KEYS.filter((key) => {
    const operation = OPERATIONS[key];
    return (
      (spec.operation === undefined || spec.operation === key) &&
      (spec.method === undefined || spec.method.toUpperCase() === operation.method) &&
      (spec.path === undefined || spec.path === operation.path || templateMatches(operation.path, spec.path))
    );
  });
}

/** The armed faults, matched in the order they were added. */
export class FaultInjector {
  private faults: ArmedFault[] = [];
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private readonly stalled = new Set<Socket>();
  private readonly responseSchemas = new Map<OperationKey, TSchema>();

  /** Tells the injector the schema an operation's answers are serialized with (to check `omitField`). */
  registerResponseSchema(operation: OperationKey, schema: TSchema): void {
    this.responseSchemas.set(operation, schema);
  }

  /** Arms a fault; throws a 400 ApiError when the spec is not explicit about one answer it can give. */
  add(spec: FaultSpec): ArmedFault {
    const answers = answersOf(spec);
    if (answers.length > 1) {
      throw apiError(
        "INVALID_ARGUMENT",
        `a fault takes at most one of ${ANSWERS.join(", ")}; this one asks for ${answers.join(" and ")}`,
      );
    }
    const [answer] = answers;
    if (answer === undefined && spec.latencyMs === undefined) {
      throw apiError("INVALID_ARGUMENT", `a fault needs at least one of latencyMs, ${ANSWERS.join(", ")}`);
    }
    if (answer !== undefined && NEED_REAL_BODY.has(answer) && spec.phase !== "after") {
      throw apiError(
        "INVALID_ARGUMENT",
        `${answer} shapes the operation's real answer, so it needs "phase": "after" (the operation runs first)`,
      );
    }
    if (spec.operation !== undefined && !OPERATION_KEYS.includes(spec.operation)) {
      throw apiError("INVALID_ARGUMENT", `operation must be one of ${OPERATION_KEYS.join(", ")}`);
    }
    if (spec.omitField !== undefined) this.checkOmittable(spec, spec.omitField);
    const fault: ArmedFault = {
      ...structuredClone(spec),
      ...(spec.method ? { method: spec.method.toUpperCase() } : {}),
      id: randomUUID(),
      remaining: spec.count ?? 1,
    };
    this.faults.push(fault);
    return structuredClone(fault);
  }

  list(): ArmedFault[] {
    return structuredClone(this.faults);
  }

  clear(): void {
    this.faults = [];
  }

  /** Takes (and uses up one count of) the first fault of `phase` matching this request, if any. */
  take(
    operation: OperationKey,
    method: string,
    path: string,
    phase: FaultPhase = "before",
  ): ArmedFault | undefined {
    const template = OPERATIONS[operation].path;
    const fault = this.faults.find(
      (f) =>
        (f.phase ?? "before") === phase &&
        (f.operation === undefined || f.operation === operation) &&
        (f.method === undefined || f.method === method.toUpperCase()) &&
        (f.path === undefined || f.path === path || f.path === template),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return structuredClone(fault);
  }

  /**
   * Applies a phase-before fault (in an onRequest hook, before authentication: as a gateway in front of
   * the platform would). "answered" means the reply is done; "continue" lets the operation run.
   */
  async applyBefore(
    fault: ArmedFault,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<"continue" | "answered"> {
    if (fault.latencyMs) await this.sleep(fault.latencyMs);
    if (fault.drop) {
      reply.hijack();
      destroyConnection(request);
      return "answered";
    }
    if (fault.malformed) {
      sendMalformed(request, reply);
      return "answered";
    }
    if (fault.status !== undefined) {
      sendFaultStatus(fault, request, reply);
      return "answered";
    }
    return "continue";
  }

  /**
   * Applies a phase-after fault to an operation that has completed with `result`. Returns what the route
   * handler returns: `result` itself when the fault only delays it, else the reply (already answered).
   */
  async applyAfter(
    fault: ArmedFault,
    request: FastifyRequest,
    reply: FastifyReply,
    result: unknown,
  ): Promise<unknown> {
    if (fault.latencyMs) await this.sleep(fault.latencyMs);
    if (fault.drop) {
      reply.hijack();
      destroyConnection(request);
    } else if (fault.malformed) {
      sendMalformed(request, reply);
    } else if (fault.status !== undefined) {
      sendFaultStatus(fault, request, reply);
    } else if (fault.truncate) {
      sendTruncated(request, reply, realBody(reply, result));
    } else if (fault.stall) {
      const socket = sendStalled(request, reply, realBody(reply, result));
      this.stalled.add(socket);
      socket.once("close", () => this.stalled.delete(socket));
    } else if (fault.omitField !== undefined) {
      if (!sendWithoutField(request, reply, realBody(reply, result), fault.omitField)) {
        sendApiError(
          request,
          reply,
          apiError(
            "INVALID_ARGUMENT",
            `injected fault: omitField "${fault.omitField}" names no field of this answer ` +
              "(the operation itself was applied)",
          ),
        );
      }
    } else {
      return result;
    }
    return reply;
  }

  /** Ends every pending latency wait at once (on close, so that nothing keeps the process alive). */
  wakeAll(): void {
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.wake();
    }
    this.sleepers.clear();
  }

  /**
   * Destroys the connections of stalled answers (on close, so that nothing keeps the process alive);
   * resolves once they are closed, so their request-log entries are finished.
   */
  async endStalled(): Promise<void> {
    const sockets = [...this.stalled];
    this.stalled.clear();
    const closed = sockets.map(
      (socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once("close", resolve))),
    );
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
  }

  /** Rejects an `omitField` that no answer of the operations the fault can match would ever hold. */
  private checkOmittable(spec: FaultSpec, path: string): void {
    const schemas = candidateOperations(spec).flatMap((key) => {
      const schema = this.responseSchemas.get(key);
      return schema ? [{ key, schema }] : [];
    });
    // Without a registered schema (no routes, as in unit tests) the answer decides.
    if (schemas.length === 0) return;
    const segments = fieldPathSegments(path);
    if (schemas.some(({ schema }) => schemaAllowsField(schema, segments))) return;
    throw apiError(
      "INVALID_ARGUMENT",
      `omitField "${path}" is not a field of the answer of ${schemas.map(({ key }) => key).join(", ")}`,
    );
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleepers.delete(sleeper);
          resolve();
        }, ms),
        wake: resolve,
      };
      this.sleepers.add(sleeper);
    });
  }
}

/** The body the operation would have answered: `result` serialized through its response schema. */
function realBody(reply: FastifyReply, result: unknown): string {
  const body = reply.serialize(result);
  return typeof body === "string" ? body : Buffer.from(body as Uint8Array).toString("utf8");
}

/** The error answer of a `status` fault. */
function sendFaultStatus(fault: ArmedFault, request: FastifyRequest, reply: FastifyReply): void {
  const status = fault.status ?? 500;
  const headers: Record<string, string> = fault.retryAfter ? { "retry-after": fault.retryAfter } : {};
  const message = fault.message ?? `injected fault: the emulator answers ${status} for this request`;
  sendApiError(request, reply, new ApiError(status, fault.code ?? codeForStatus(status), message, headers));
}
