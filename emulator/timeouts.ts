/**
 * Connection time limits, so that no client can hold an emulator's connection open forever (it runs on
 * developers' machines): a request head must arrive within `headersMs`, a whole request within
 * `requestMs` (both answered 408 and closed), an idle kept-alive connection is closed after `keepAliveMs`,
 * and a connection silent in any state (a stalled answer, a client that reads nothing) after
 * `socketIdleMs`.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { destroyByEmulator } from "./connections";
import { LATENCY_MAX_MS } from "./faults";

/** Connection time limits, in milliseconds. */
export interface ConnectionTimeouts {
  /** The whole head of a request (from the connection or the previous answer) must arrive within this. */
  headersMs: number;
  /** The whole request, head and body, must arrive within this (at least `headersMs`). */
  requestMs: number;
  /** A kept-alive connection idle between requests is closed after this. */
  keepAliveMs: number;
  /**
   * A connection on which nothing moves for this long, whatever its state, is closed: a stalled answer
   * (fault `stall`) or a client that stops reading. Keep it above the longest `latencyMs` of a fault.
   */
  socketIdleMs: number;
}

/** The default limits: generous for any client on the same machine, finite for every connection. */
export const DEFAULT_TIMEOUTS: Readonly<ConnectionTimeouts> = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  // Above the longest latency fault, so that only a stall or a client that reads nothing meets it.
  socketIdleMs: LATENCY_MAX_MS + 60_000,
};

/** Node's timers take at most this many milliseconds. */
const MAX_TIMEOUT_MS = 2_147_483_647;

const NAMES = Object.keys(DEFAULT_TIMEOUTS) as Array<keyof ConnectionTimeouts>;

/** The limits with every absent one at its default; throws when one is not a positive whole number of ms. */
export function resolveTimeouts(given: Partial<ConnectionTimeouts> = {}): ConnectionTimeouts {
  for (const name of Object.keys(given)) {
    if (!NAMES.includes(name as keyof ConnectionTimeouts)) {
      throw new Error(`timeouts.${name} is not a time limit; use ${NAMES.join(", ")}`);
    }
  }
  const timeouts = { ...DEFAULT_TIMEOUTS, ...given };
  for (const name of NAMES) {
    const value = timeouts[name];
    if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
      throw new Error(`timeouts.${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
    }
  }
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new Error(
      `timeouts.headersMs (${timeouts.headersMs}) cannot exceed timeouts.requestMs (${timeouts.requestMs}): ` +
        "the head is part of the request",
    );
  }
  return timeouts;
}

/** Fastify's server options for these limits. */
export function serverTimeoutOptions(timeouts: ConnectionTimeouts) {
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.socketIdleMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node checks the head and request limits at this interval (30 s by default, so late by up to that).
      connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(timeouts.headersMs / 4))),
    },
  };
}

/**
 * Closes connections that stayed silent for `socketIdleMs`, on the emulator's account (the request log
 * does not say the client went away). Node's own reaction to the server's `timeout` event is the same
 * destroy; listening to it is what lets the emulator note that it did it.
 */
export function closeSilentConnections(server: Server): void {
  server.on("timeout", (socket: Socket) => destroyByEmulator(socket));
}
