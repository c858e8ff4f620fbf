/**
 * The client-side rate limiter: its token bucket and in-flight cap on a fake clock (no timing
 * assertions: the clock only moves when a test moves it), and its use by clients against a local fake
 * server (shared limiter, Retry-After pause, queue wait not charged to the deadline, option checks).
 */
import { expect } from "chai";
import * as util from "node:util";
import {
  CodeSecClient,
  CodeSecInputError,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_REQUESTS_PER_SECOND,
  RateLimiter,
  type LimiterClock,
} from "../../client";
import { FakeServer, SAMPLES, TOKEN } from "../support/fakeServer";

/** A clock that moves only when told; timers fire, in order, as it passes them. */
class FakeClock implements LimiterClock {
  #now = 1_000;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #nextId = 1;

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(1, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Pending timers: a waiting limiter has exactly one. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves the clock forward by `ms`, firing every timer due on the way (and the promises they settle). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].callback();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets resolved promises run their continuations. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** Starts `count` acquisitions and records, for each, the fake time at which it got its slot. */
function acquireAll(limiter: RateLimiter, clock: FakeClock, count: number) {
  const grantedAt: (number | undefined)[] = Array.from({ length: count }, () => undefined);
  const releases: (() => void)[] = [];
  const order: number[] = [];
  for (let i = 0; i < count; i++) {
    void limiter.acquire().then((release) => {
      grantedAt[i] = clock.now();
      releases[i] = release;
      order.push(i);
    });
  }
  return { grantedAt, releases, order };
}

describe("RateLimiter", () => {
  it("defaults to 100 requests per second and 16 in flight", () => {
    expect([DEFAULT_REQUESTS_PER_SECOND, DEFAULT_MAX_IN_FLIGHT]).to.deep.equal([100, 16]);
    const limiter = new RateLimiter();
    expect([limiter.requestsPerSecond, limiter.maxInFlight]).to.deep.equal([100, 16]);
  });

  it("spaces requests at the rate: never more than its small burst plus rate x elapsed", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 10, maxInFlight: 1000 }, clock);
    const start = clock.now();
    const { grantedAt, releases } = acquireAll(limiter, clock, 30);
    await settle();
    for (let step = 0; step < 40; step++) {
      await clock.advance(100);
      releases.forEach((release) => release());
    }
    expect(grantedAt.every((at) => at !== undefined)).to.equal(true);
    const times = grantedAt as number[];
    // Over any window of the run, at most burst + rate x window: with 10/s the burst is one request.
    expect(limiter.burst).to.equal(1);
    for (let i = 0; i < times.length; i++) {
      for (let j = i; j < times.length; j++) {
        expect(j - i + 1).to.be.at.most(limiter.burst + ((times[j] - times[i]) / 1000) * 10 + 1e-9);
      }
    }
    // And it does not dawdle: 30 requests at 10/s are all out within 3 s of the first.
    expect(times[29] - start).to.be.at.most(3000);
    expect(clock.pendingTimers).to.equal(0);
  });

  it("keeps its pace when its timer fires late, as on a loaded machine: the lateness is made up", async () => {
    // Every timer fires 30 ms after it was due (a busy event loop, a machine shared by many processes).
    const lateness = 30;
    const clock = new (class extends FakeClock {
      override setTimeout(callback: () => void, ms: number): unknown {
        return super.setTimeout(callback, ms + lateness);
      }
    })();
    const rate = DEFAULT_REQUESTS_PER_SECOND;
    const limiter = new RateLimiter({ requestsPerSecond: rate, maxInFlight: 1000 }, clock);
    const { grantedAt } = acquireAll(limiter, clock, 300);
    await settle();
    await clock.advance(10_000);
    const times = grantedAt as number[];
    // The n-th request is due n / rate after the first; a late timer delays it by its lateness at most,
    // instead of pushing every later request back by it.
    for (let i = 0; i < times.length; i++) {
      expect(times[i] - times[0], `request ${i}`).to.be.at.most((i * 1000) / rate + lateness);
    }
  });

  it("a client at the server's exact rate stays within a server bucket of one second's capacity", async () => {
    const clock = new FakeClock();
    const rate = 50;
    const limiter = new RateLimiter({ requestsPerSecond: rate, maxInFlight: 1000 }, clock);
    const { grantedAt } = acquireAll(limiter, clock, 300);
    await settle();
    await clock.advance(10_000);
    // The server's bucket: `rate` tokens, refilled continuously at `rate` per second, full at the start.
    let tokens = rate;
    let last = (grantedAt as number[])[0];
    for (const at of grantedAt as number[]) {
      tokens = Math.min(rate, tokens + ((at - last) / 1000) * rate);
      last = at;
      tokens -= 1;
      expect(tokens).to.be.at.least(-1e-9);
    }
  });

  it("keeps at most maxInFlight slots out, and hands a released slot to the next in line", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 100_000, maxInFlight: 2 }, clock);
    const { releases, order } = acquireAll(limiter, clock, 5);
    await clock.advance(100);
    expect(order).to.deep.equal([0, 1]);
    expect(limiter.inFlight).to.equal(2);
    expect(limiter.queued).to.equal(3);
    releases[1]();
    releases[1](); // a second release of the same slot frees nothing more
    await clock.advance(100);
    expect(order).to.deep.equal([0, 1, 2]);
    expect(limiter.inFlight).to.equal(2);
    releases[0]();
    releases[2]();
    await clock.advance(100);
    expect(order).to.deep.equal([0, 1, 2, 3, 4]);
  });

  it("tryAcquire takes a free slot at once, but never one a waiter is owed", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 100_000, maxInFlight: 1 }, clock);
    const first = limiter.tryAcquire();
    expect(first).to.be.a("function");
    expect(limiter.tryAcquire()).to.equal(undefined); // full
    const { order } = acquireAll(limiter, clock, 1);
    first!();
    expect(limiter.tryAcquire()).to.equal(undefined); // the freed slot went to the waiter
    await settle();
    expect(order).to.deep.equal([0]);
  });

  it("serves waiters first come, first served", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 5, maxInFlight: 1 }, clock);
    const { releases, order } = acquireAll(limiter, clock, 6);
    for (let step = 0; step < 20; step++) {
      await clock.advance(300);
      releases.forEach((release) => release());
    }
    expect(order).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });

  it("a pause holds every waiter until it ends, then resumes in order without a burst", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 10, maxInFlight: 100 }, clock);
    const first = acquireAll(limiter, clock, 1);
    await settle();
    expect(first.order).to.deep.equal([0]);
    limiter.pauseFor(2_000);
    const pausedAt = clock.now();
    const { grantedAt, order } = acquireAll(limiter, clock, 3);
    await clock.advance(1_999);
    expect(order).to.deep.equal([]);
    await clock.advance(1);
    expect(order).to.deep.equal([0]);
    expect(grantedAt[0]).to.be.at.least(pausedAt + 2_000);
    await clock.advance(100);
    expect(order).to.deep.equal([0, 1]);
    expect((grantedAt[1] as number) - (grantedAt[0] as number)).to.be.at.least(100);
    await clock.advance(100);
    expect(order).to.deep.equal([0, 1, 2]);
  });

  it("no burst when a pause ends, even at a rate whose burst is many requests", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 1_000, maxInFlight: 100 }, clock);
    expect(limiter.burst).to.be.greaterThan(2);
    limiter.pauseFor(2_000);
    const { order } = acquireAll(limiter, clock, 5);
    await clock.advance(2_000);
    expect(order).to.deep.equal([0]);
    await clock.advance(1);
    expect(order).to.deep.equal([0, 1]);
  });

  it("a shorter pause never shortens a longer one", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 10 }, clock);
    limiter.pauseFor(3_000);
    limiter.pauseFor(1_000);
    const { order } = acquireAll(limiter, clock, 1);
    await clock.advance(2_000);
    expect(order).to.deep.equal([]);
    await clock.advance(1_000);
    expect(order).to.deep.equal([0]);
  });

  it("holds no timer when nobody waits", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 1, maxInFlight: 1 }, clock);
    const { releases, order } = acquireAll(limiter, clock, 2);
    await settle();
    expect(clock.pendingTimers).to.equal(0); // the second waits for the slot: a release wakes it
    releases[0]();
    expect(clock.pendingTimers).to.equal(1); // now for its token, due a second after the first
    await clock.advance(1_000);
    expect(order).to.deep.equal([0, 1]);
    expect(clock.pendingTimers).to.equal(0);
    limiter.pauseFor(60_000);
    expect(clock.pendingTimers).to.equal(0);
  });

  describe("options", () => {
    const bad: [string, Record<string, unknown>, string][] = [
      ["requestsPerSecond", { requestsPerSecond: 0 }, "between 1 and 100000"],
      ["requestsPerSecond", { requestsPerSecond: 100_001 }, "between 1 and 100000"],
      ["requestsPerSecond", { requestsPerSecond: Number.NaN }, "got NaN"],
      ["requestsPerSecond", { requestsPerSecond: "10" }, 'got "10"'],
      ["maxInFlight", { maxInFlight: 0 }, "an integer between 1 and 1000"],
      ["maxInFlight", { maxInFlight: 2.5 }, "an integer between 1 and 1000"],
      ["maxInFlight", { maxInFlight: 1001 }, "an integer between 1 and 1000"],
      ["rps", { rps: 5 }, "unknown rate limiter option"],
    ];
    for (const [field, options, words] of bad) {
      it(`rejects ${util.inspect(options)}, naming ${field}`, () => {
        expect(() => new RateLimiter(options))
          .to.throw(CodeSecInputError, words)
          .with.property("field", field);
        // The client checks the same options with the same words.
        expect(() => new CodeSecClient({ baseUrl: "https://codesec.example.com", token: TOKEN, ...options }))
          .to.throw(CodeSecInputError)
          .with.property("field", field === "rps" ? "rps" : field);
      });
    }

    it("accepts a fractional rate", () => {
      expect(new RateLimiter({ requestsPerSecond: 2.5 }).requestsPerSecond).to.equal(2.5);
    });

    it("refuses a shared limiter together with the numbers it would override", () => {
      const rateLimiter = new RateLimiter();
      for (const field of ["requestsPerSecond", "maxInFlight"]) {
        expect(
          () =>
            new CodeSecClient({
              baseUrl: "https://codesec.example.com",
              token: TOKEN,
              rateLimiter,
              [field]: 5,
            }),
        )
          .to.throw(CodeSecInputError, "rateLimiter")
          .with.property("field", field);
      }
    });

    it("refuses a rateLimiter that is not a RateLimiter", () => {
      expect(
        () =>
          new CodeSecClient({
            baseUrl: "https://codesec.example.com",
            token: TOKEN,
            rateLimiter: { acquire: () => Promise.resolve(() => undefined) } as unknown as RateLimiter,
          }),
      )
        .to.throw(CodeSecInputError, "RateLimiter")
        .with.property("field", "rateLimiter");
    });
  });
});

describe("CodeSecClient rate limiting", () => {
  const SCAN_ARGS = { deploymentId: "42", scanId: "1001" };
  const SCAN_OK = { status: 200, json: { scan: SAMPLES.scan } };
  let server: FakeServer;
  let inFlight = 0;
  let maxSeen = 0;
  beforeEach(async () => {
    inFlight = 0;
    maxSeen = 0;
    server = await FakeServer.start();
  });
  afterEach(async () => server.close());

  /** Answers after a while (long enough for a busy machine to send every waiting request), recording how many requests the server held at once. */
  function countConcurrency(delayMs = 250): void {
    server.respond(async () => {
      inFlight++;
      maxSeen = Math.max(maxSeen, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      inFlight--;
      return SCAN_OK;
    });
  }

  it("caps one client's requests in flight (maxInFlight)", async () => {
    countConcurrency();
    const client = server.client({ maxInFlight: 3, requestsPerSecond: 100_000 });
    await Promise.all(Array.from({ length: 12 }, () => client.getScan(SCAN_ARGS)));
    expect(server.requests).to.have.length(12);
    expect(maxSeen).to.equal(3);
  });

  it("two clients sharing one limiter share its in-flight cap", async () => {
    countConcurrency();
    const rateLimiter = new RateLimiter({ requestsPerSecond: 100_000, maxInFlight: 2 });
    const a = server.client({ rateLimiter });
    const b = server.client({ rateLimiter });
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).getScan(SCAN_ARGS)));
    expect(server.requests).to.have.length(10);
    expect(maxSeen).to.equal(2);
    expect(rateLimiter.inFlight).to.equal(0);
  });

  it("two clients with their own limiters do not share the cap", async () => {
    countConcurrency();
    const a = server.client({ maxInFlight: 2, requestsPerSecond: 100_000 });
    const b = server.client({ maxInFlight: 2, requestsPerSecond: 100_000 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).getScan(SCAN_ARGS)));
    expect(maxSeen).to.equal(4);
  });

  it("releases the slot of every attempt, whatever its outcome", async () => {
    const rateLimiter = new RateLimiter({ requestsPerSecond: 100_000, maxInFlight: 1 });
    const client = server.client({ rateLimiter, retries: 2 });
    server.sequence(
      { status: 503, json: {} },
      { destroy: true },
      SCAN_OK,
      { status: 404, json: { message: "no such scan" } },
      { status: 200, text: "not json" },
    );
    await client.getScan(SCAN_ARGS);
    await client.getScan(SCAN_ARGS).catch(() => undefined);
    await client.getScan(SCAN_ARGS).catch(() => undefined);
    await client.getCurrentUser().catch(() => undefined); // answered "not json": a response error
    expect(rateLimiter.inFlight).to.equal(0);
    expect(rateLimiter.queued).to.equal(0);
  });

  /** A limiter that records every pause asked of it. */
  function recordingLimiter(): { rateLimiter: RateLimiter; pauses: number[] } {
    const pauses: number[] = [];
    class RecordingLimiter extends RateLimiter {
      override pauseFor(ms: number): void {
        pauses.push(ms);
        super.pauseFor(ms);
      }
    }
    return { rateLimiter: new RecordingLimiter({ requestsPerSecond: 100_000 }), pauses };
  }

  it("a 429 with a Retry-After it honours pauses the shared limiter until then", async () => {
    const { rateLimiter, pauses } = recordingLimiter();
    const a = server.client({ rateLimiter, maxRetryDelayMs: 5_000 });
    const b = server.client({ rateLimiter, maxRetryDelayMs: 5_000 });
    server.sequence({ status: 429, json: {}, headers: { "retry-after": "1" } }, SCAN_OK);
    const first = a.getScan(SCAN_ARGS);
    while (pauses.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(pauses[0]).to.be.above(0).and.at.most(1_000);
    // While a waits out the Retry-After, the other client's request queues instead of going out.
    const second = b.getScan(SCAN_ARGS);
    expect(rateLimiter.queued).to.equal(1);
    await Promise.all([first, second]);
    expect(server.requests).to.have.length(3);
    expect(rateLimiter.queued).to.equal(0);
  });

  it("a Retry-After above maxRetryDelayMs, which fails the call, does not pause the limiter", async () => {
    const { rateLimiter, pauses } = recordingLimiter();
    server.always({ status: 429, json: {}, headers: { "retry-after": "120" } });
    await server
      .client({ rateLimiter })
      .getScan(SCAN_ARGS)
      .catch(() => undefined);
    expect(pauses).to.deep.equal([]);
  });

  it("does not charge the time queued in the limiter to deadlineMs", async () => {
    server.always({ ...SCAN_OK, delayMs: 100 });
    const rateLimiter = new RateLimiter({ requestsPerSecond: 100_000, maxInFlight: 1 });
    const client = server.client({ rateLimiter, deadlineMs: 1_000, retries: 0 });
    const release = await rateLimiter.acquire();
    const call = client.getScan(SCAN_ARGS);
    // Queued for longer than the whole deadline before it can be sent.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(server.requests).to.have.length(0);
    release();
    expect((await call).id).to.equal(SAMPLES.scan.id);
  });
});
