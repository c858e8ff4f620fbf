/**
 * The client-side rate limiter: a smooth token bucket (requests per second) and a cap on requests in
 * flight, shared by every client given the same limiter, so a large stack paces itself instead of
 * setting off a storm of 429s.
 */
import { CodeSecInputError } from "./errors";
import { checkNumber, checkOptionNames } from "./optionChecks";

/** Default pace of a client (and of a provider process): the platform's documented rate limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 100;
/** Default cap of requests in flight at once. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** Bounds of the options. */
export const MAX_REQUESTS_PER_SECOND = 100_000;
export const MAX_IN_FLIGHT_LIMIT = 1_000;

/**
 * How much traffic may go out at once after a quiet spell: this many ms worth at the rate (at least one
 * request; 10 at the default rate). Small enough that one limiter at a server's exact rate stays within a
 * server bucket holding one second's worth (a tenth of it); large enough that timer granularity (about
 * 1 ms) does not cap a high rate, and that a timer firing late (a busy event loop, a loaded machine) is
 * made up at once instead of pushing every later request back, as long as it is late by at most the
 * window less one interval (90 ms at the default rate); lateness beyond that is lost. The bound is per
 * limiter: clients with limiters of their own, in one process or several, each add their rate and burst.
 */
export const BURST_WINDOW_MS = 100;

export interface RateLimiterOptions {
  /** Requests started per second, 1-100000 (may be fractional). Default 100. */
  requestsPerSecond?: number;
  /** Requests in flight at once, an integer 1-1000. Default 16. */
  maxInFlight?: number;
}

/** Time source and timers of a limiter; tests pass a fake one. */
export interface LimiterClock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: LimiterClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

const OPTION_NAMES: readonly (keyof RateLimiterOptions)[] = ["requestsPerSecond", "maxInFlight"];

/**
 * Paces requests: each one first takes a slot ({@link RateLimiter.acquire}), which needs a token (the
 * bucket refills at `requestsPerSecond` and holds {@link BURST_WINDOW_MS} worth: after a quiet spell up
 * to {@link RateLimiter.burst} requests go out back to back, then they follow at the rate) and a free place among `maxInFlight`, and gives it back when its
 * outcome is known. Waiters are served first come, first served. {@link RateLimiter.pauseFor} holds
 * every waiter (of every client sharing the limiter) until a server's `Retry-After` has passed.
 *
 * A timer runs only while someone waits, so an idle limiter never keeps a process alive.
 *
 * @example
 * // One limiter for every client of a process: together they send at most 50 requests per second.
 * const rateLimiter = new RateLimiter({ requestsPerSecond: 50, maxInFlight: 8 });
 * const a = new CodeSecClient({ baseUrl, token: tokenA, rateLimiter });
 * const b = new CodeSecClient({ baseUrl, token: tokenB, rateLimiter });
 */
export class RateLimiter {
  readonly requestsPerSecond: number;
  readonly maxInFlight: number;
  /** Requests that may go out back to back after a quiet spell. */
  readonly burst: number;
  readonly #intervalMs: number;
  readonly #clock: LimiterClock;
  /** When the bucket would be empty again if no token were taken (the GCRA's theoretical arrival time). */
  #emptyAt = Number.NEGATIVE_INFINITY;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  #inFlight = 0;
  readonly #waiters: ((release: ReleaseSlot) => void)[] = [];
  #timer: unknown;
  #timerAt = Number.NaN;

  /**
   * @param options `requestsPerSecond` (default {@link DEFAULT_REQUESTS_PER_SECOND}) and `maxInFlight`
   *   (default {@link DEFAULT_MAX_IN_FLIGHT}); a bad value throws {@link CodeSecInputError} naming it.
   * @param clock Time source; tests pass a fake one.
   */
  constructor(options: RateLimiterOptions = {}, clock: LimiterClock = systemClock) {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new CodeSecInputError(
        "options",
        "RateLimiter expects an options object { requestsPerSecond?, maxInFlight? }",
      );
    }
    checkOptionNames(options, OPTION_NAMES, "rate limiter");
    this.requestsPerSecond = checkRequestsPerSecond(options.requestsPerSecond);
    this.maxInFlight = checkMaxInFlight(options.maxInFlight);
    this.#intervalMs = 1000 / this.requestsPerSecond;
    this.burst = Math.max(1, Math.floor((this.requestsPerSecond * BURST_WINDOW_MS) / 1000));
    this.#clock = clock;
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests waiting for a slot now. */
  get queued(): number {
    return this.#waiters.length;
  }

  /**
   * Waits for a slot (a token and a place in flight), first come, first served. Resolves with the
   * function that gives the slot back: call it once the request's outcome is known.
   */
  acquire(): Promise<ReleaseSlot> {
    const release = this.tryAcquire();
    if (release !== undefined) return Promise.resolve(release);
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#drain();
    });
  }

  /**
   * A slot at once, when one is free and nobody waits before (the common case, without a promise);
   * undefined otherwise (then {@link RateLimiter.acquire} queues for one).
   */
  tryAcquire(): ReleaseSlot | undefined {
    const now = this.#clock.now();
    return this.#waiters.length === 0 && this.#canGrant(now) ? this.#grant(now) : undefined;
  }

  /**
   * Grants no slot for the next `ms` milliseconds (a server asked to wait with `Retry-After`). A pause
   * never shortens one already running; afterwards requests resume at the rate, without a burst.
   */
  pauseFor(ms: number): void {
    if (!(ms > 0)) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
    // No burst when the pause ends: the bucket counts as empty then, refilling at the rate from there.
    this.#emptyAt = Math.max(this.#emptyAt, this.#pausedUntil + (this.burst - 1) * this.#intervalMs);
    if (this.#waiters.length > 0) this.#drain();
  }

  #canGrant(now: number): boolean {
    return this.#inFlight < this.maxInFlight && now >= this.#readyAt();
  }

  /** The first moment a token is available and no pause holds. */
  #readyAt(): number {
    return Math.max(this.#pausedUntil, this.#emptyAt - (this.burst - 1) * this.#intervalMs);
  }

  #grant(now: number): ReleaseSlot {
    // Tokens do not pile up during a pause or a quiet spell beyond the burst.
    this.#emptyAt = Math.max(this.#emptyAt, now, this.#pausedUntil) + this.#intervalMs;
    this.#inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      if (this.#waiters.length > 0) this.#drain();
    };
  }

  /** Hands out slots to waiters in order, then sets one timer for the next token if someone still waits. */
  #drain(): void {
    while (this.#waiters.length > 0) {
      const now = this.#clock.now();
      // A full house waits for a release, which drains again: no timer needed.
      if (this.#inFlight >= this.maxInFlight) break;
      const readyAt = this.#readyAt();
      if (now < readyAt) {
        this.#wakeAt(readyAt, now);
        return;
      }
      const waiter = this.#waiters.shift()!;
      waiter(this.#grant(now));
    }
    this.#cancelTimer();
  }

  #wakeAt(at: number, now: number): void {
    if (this.#timer !== undefined && this.#timerAt === at) return;
    this.#cancelTimer();
    this.#timerAt = at;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#drain();
      },
      Math.max(1, Math.ceil(at - now)),
    );
  }

  #cancelTimer(): void {
    if (this.#timer === undefined) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Checks the `requestsPerSecond` option (of a limiter or a client). */
export function checkRequestsPerSecond(value: unknown): number {
  return checkNumber("requestsPerSecond", value, DEFAULT_REQUESTS_PER_SECOND, 1, MAX_REQUESTS_PER_SECOND);
}

/** Checks the `maxInFlight` option (of a limiter or a client). */
export function checkMaxInFlight(value: unknown): number {
  return checkNumber("maxInFlight", value, DEFAULT_MAX_IN_FLIGHT, 1, MAX_IN_FLIGHT_LIMIT, true);
}
