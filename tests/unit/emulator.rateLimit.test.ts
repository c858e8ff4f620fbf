/** The emulator's rate limiter: one token bucket per credential, on a clock the test moves by hand. */
import { expect } from "chai";
import { RateLimiter, rateLimitProblem } from "../../emulator/rateLimit";

/** A limiter whose clock only moves when the test says so. */
function limiterAt(requestsPerSecond: number) {
  let nowMs = 1_000_000;
  const limiter = new RateLimiter(requestsPerSecond, () => nowMs);
  return {
    limiter,
    advance: (ms: number) => {
      nowMs += ms;
    },
    /** How many of `count` requests of `key` are admitted now. */
    admitted: (key: string, count: number) => {
      let admitted = 0;
      for (let i = 0; i < count; i += 1) if (limiter.take(key).admitted) admitted += 1;
      return admitted;
    },
  };
}

describe("emulator rate limiter", () => {
  it("admits one second's worth of requests at once and refuses the rest, saying when to retry", () => {
    const { limiter, admitted } = limiterAt(5);
    expect(admitted("a", 5)).to.equal(5);
    expect(limiter.take("a")).to.deep.equal({ admitted: false, retryAfterSeconds: 1 });
    expect(admitted("a", 10)).to.equal(0);
  });

  it("refills continuously at the rate: one request more per 1/rate seconds, never more than the capacity", () => {
    const { advance, admitted } = limiterAt(5);
    expect(admitted("a", 5)).to.equal(5);
    advance(199);
    expect(admitted("a", 1)).to.equal(0);
    advance(1);
    expect(admitted("a", 2)).to.equal(1);
    advance(400);
    expect(admitted("a", 3)).to.equal(2);
    advance(60_000);
    expect(admitted("a", 10)).to.equal(5);
  });

  it("rounds Retry-After up to whole seconds, at least 1: the time until a request would be admitted", () => {
    const { limiter, advance } = limiterAt(0.25);
    expect(limiter.take("a").admitted).to.equal(true); // a rate below 1 still admits one request
    expect(limiter.take("a")).to.deep.equal({ admitted: false, retryAfterSeconds: 4 });
    advance(1_500);
    expect(limiter.take("a")).to.deep.equal({ admitted: false, retryAfterSeconds: 3 });
    advance(2_499);
    expect(limiter.take("a")).to.deep.equal({ admitted: false, retryAfterSeconds: 1 });
    advance(1);
    expect(limiter.take("a").admitted).to.equal(true);
  });

  it("a refused request takes nothing from the bucket", () => {
    const { advance, admitted } = limiterAt(2);
    expect(admitted("a", 2)).to.equal(2);
    expect(admitted("a", 50)).to.equal(0);
    advance(500);
    expect(admitted("a", 1)).to.equal(1);
  });

  it("keeps one bucket per credential", () => {
    const { admitted } = limiterAt(3);
    expect(admitted("a", 4)).to.equal(3);
    expect(admitted("b", 4)).to.equal(3);
  });

  it("clear() fills every bucket again", () => {
    const { limiter, admitted } = limiterAt(3);
    expect(admitted("a", 3)).to.equal(3);
    limiter.clear();
    expect(admitted("a", 3)).to.equal(3);
  });

  it("refuses a rate that is not a positive finite number, saying what it got", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(rateLimitProblem(bad)).to.match(/must be a positive number of requests per second/);
      expect(() => new RateLimiter(bad)).to.throw(/must be a positive number of requests per second/);
    }
    expect(rateLimitProblem(0.5)).to.equal(undefined);
    expect(rateLimitProblem(100)).to.equal(undefined);
  });
});
