/**
 * The emulator's optional rate limit (`--rate-limit N`, `startEmulator({ rateLimit: N })`), as the real
 * platform limits request rates: a token bucket per credential, holding one second's worth of requests
 * (at least one) and refilled continuously at N per second. A request takes a token or is refused, and a
 * refusal says when the next token will be there (`Retry-After`, whole seconds, at least 1).
 */

/** The limiter's answer for one request. */
export type RateDecision = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/** Why `requestsPerSecond` cannot be a rate limit, or undefined when it can. */
export function rateLimitProblem(requestsPerSecond: number): string | undefined {
  if (Number.isFinite(requestsPerSecond) && requestsPerSecond > 0) return undefined;
  return `must be a positive number of requests per second, got ${String(requestsPerSecond)}`;
}

/** "5 requests per second", "1 request per second", "0.5 requests per second". */
export function describeRate(requestsPerSecond: number): string {
  return `${requestsPerSecond} request${requestsPerSecond === 1 ? "" : "s"} per second`;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms on the limiter's clock). */
  at: number;
}

/** Refill arithmetic adds fractions of a token; this much below a whole one still counts as whole. */
const ROUNDING = 1e-9;
/** Past this many buckets, full ones (credentials idle for a second or more) are dropped. */
const BUCKET_PRUNE_THRESHOLD = 10_000;

export class RateLimiter {
  private readonly capacity: number;
  private readonly buckets = new Map<string, Bucket>();

  /**
   * @param requestsPerSecond the limit per credential (a positive number; below 1, one request at a time)
   * @param now the clock in milliseconds (monotonic by default; tests pass their own)
   */
  constructor(
    readonly requestsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    const problem = rateLimitProblem(requestsPerSecond);
    if (problem !== undefined) throw new Error(`the rate limit ${problem}`);
    this.capacity = Math.max(1, requestsPerSecond);
  }

  /** Takes a token from the bucket of `credentialKey` (an opaque key: never a credential in clear). */
  take(credentialKey: string): RateDecision {
    const now = this.now();
    const bucket = this.bucketOf(credentialKey, now);
    bucket.tokens = Math.min(
      this.capacity,
      bucket.tokens + ((now - bucket.at) * this.requestsPerSecond) / 1000,
    );
    bucket.at = now;
    if (bucket.tokens >= 1 - ROUNDING) {
      bucket.tokens = Math.max(0, bucket.tokens - 1);
      return { admitted: true };
    }
    const secondsToToken = (1 - bucket.tokens) / this.requestsPerSecond;
    return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsToToken - ROUNDING)) };
  }

  /** Fills every bucket again (the emulator's reset). */
  clear(): void {
    this.buckets.clear();
  }

  private bucketOf(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= BUCKET_PRUNE_THRESHOLD) this.pruneFull(now);
      bucket = { tokens: this.capacity, at: now };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** A bucket that would be full by now is the same as no bucket: drop it, so memory stays bounded. */
  private pruneFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) * this.requestsPerSecond) / 1000 >= this.capacity)
        this.buckets.delete(key);
    }
  }
}
