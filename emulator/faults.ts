/**
 * Fault injection, so that client retry and error handling can be tested against the emulator: an error
 * status (with Retry-After), added latency, a dropped connection, or a 200 with a broken JSON body, for
 * the next N requests that match an operation or a method and path.
 */
import { randomUUID } from "node:crypto";
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { OPERATIONS, type OperationKey } from "../sdk/operations";
import { ApiError, apiError, codeForStatus, sendApiError } from "./errors";

const OPERATION_KEYS = Object.keys(OPERATIONS) as OperationKey[];

/** Body of `POST /__emulator/faults` (and argument of `control.addFault`). */
export const FaultSpec = Type.Object(
  {
    /** Match this operation (a key of OPERATIONS in sdk/operations.ts). */
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
    /** Answer this status (400-599) with an error body instead of running the operation. */
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    /** Error code of that answer (default: the code for the status, e.g. RESOURCE_EXHAUSTED for 429). */
    code: Type.Optional(Type.String({ minLength: 1 })),
    /** Error message of that answer. */
    message: Type.Optional(Type.String({ minLength: 1 })),
    /** Retry-After header of that answer (seconds or an HTTP date). */
    retryAfter: Type.Optional(Type.String({ minLength: 1 })),
    /** Wait this long before doing anything else (alone: a slow but otherwise normal answer). */
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000 })),
    /** Destroy the connection before any response. */
    drop: Type.Optional(Type.Boolean()),
    /** Answer 200 with a body that is not valid JSON. */
    malformed: Type.Optional(Type.Boolean()),
    /** How many matching requests the fault affects (default 1). */
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type FaultSpec = Static<typeof FaultSpec>;

/** A fault that is armed: its spec, an id, and how many more requests it affects. */
export interface ArmedFault extends FaultSpec {
  id: string;
  remaining: number;
}

/** The broken body a `malformed` fault answers. */
export const MALFORMED_BODY = '{"error": "this body is deliberately cut off", "partial": [1, 2';

/** What happened to a request a fault matched. */
export type FaultOutcome = "continue" | "answered" | "dropped" | "malformed";

/** The armed faults, matched in the order they were added. */
export class FaultInjector {
  private faults: ArmedFault[] = [];
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();

  /** Arms a fault; throws a 400 ApiError when the spec asks for nothing or for two answers at once. */
  add(spec: FaultSpec): ArmedFault {
    const answers = [spec.status !== undefined, spec.drop === true, spec.malformed === true].filter(
      Boolean,
    ).length;
    if (answers > 1)
      throw apiError("INVALID_ARGUMENT", "a fault takes at most one of status, drop and malformed");
    if (answers === 0 && spec.latencyMs === undefined) {
      throw apiError(
        "INVALID_ARGUMENT",
        "a fault needs at least one of status, latencyMs, drop and malformed",
      );
    }
    if (spec.operation !== undefined && !OPERATION_KEYS.includes(spec.operation)) {
      throw apiError("INVALID_ARGUMENT", `operation must be one of ${OPERATION_KEYS.join(", ")}`);
    }
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

  /** Takes (and uses up one count of) the first fault matching this request, if any. */
  take(operation: OperationKey, method: string, path: string): ArmedFault | undefined {
    const template = OPERATIONS[operation].path;
    const fault = this.faults.find(
      (f) =>
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
   * Applies `fault` to a request (in an onRequest hook, before authentication: as a gateway in front of
   * the platform would). Returns what happened; on anything but "continue" the reply is done.
   */
  async apply(fault: ArmedFault, request: FastifyRequest, reply: FastifyReply): Promise<FaultOutcome> {
    if (fault.latencyMs) await this.sleep(fault.latencyMs);
    if (fault.drop) {
      reply.hijack();
      request.raw.socket.destroy();
      return "dropped";
    }
    if (fault.malformed) {
      reply.hijack();
      reply.raw.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "x-request-id": request.id,
      });
      reply.raw.end(MALFORMED_BODY);
      return "malformed";
    }
    if (fault.status !== undefined) {
      const headers: Record<string, string> = fault.retryAfter ? { "retry-after": fault.retryAfter } : {};
      const message =
        fault.message ?? `injected fault: the emulator answers ${fault.status} for this request`;
      sendApiError(
        request,
        reply,
        new ApiError(fault.status, fault.code ?? codeForStatus(fault.status), message, headers),
      );
      return "answered";
    }
    return "continue";
  }

  /** Ends every pending latency wait at once (on close, so that nothing keeps the process alive). */
  wakeAll(): void {
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.wake();
    }
    this.sleepers.clear();
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
