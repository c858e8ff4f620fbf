/** The retry policy's pure parts: which failures retry, backoff bounds, Retry-After parsing. */
import { expect } from "chai";
import {
  BASE_DELAY_MS,
  backoffDelayMs,
  isRetryableNetworkFailure,
  isRetryableStatus,
  isRetryableTimeout,
  parseRetryAfterMs,
  retryDelayMs,
} from "../../sdk/retryPolicy";

describe("client retry policy", () => {
  it("retries 429, 502, 503 and 504 only", () => {
    for (const status of [429, 502, 503, 504])
      expect(isRetryableStatus(status), String(status)).to.equal(true);
    for (const status of [200, 301, 400, 401, 403, 404, 409, 410, 422, 500, 501, 505]) {
      expect(isRetryableStatus(status), String(status)).to.equal(false);
    }
  });

  it("retries connection failures before a response, not DNS typos or TLS errors", () => {
    expect(isRetryableNetworkFailure("ECONNREFUSED", "connect ECONNREFUSED")).to.equal(true);
    expect(isRetryableNetworkFailure("ECONNRESET", "read ECONNRESET")).to.equal(true);
    expect(isRetryableNetworkFailure(undefined, "socket hang up")).to.equal(true);
    expect(isRetryableNetworkFailure("EAI_AGAIN", "getaddrinfo EAI_AGAIN")).to.equal(true);
    expect(isRetryableNetworkFailure("ENOTFOUND", "getaddrinfo ENOTFOUND nohost")).to.equal(false);
    expect(isRetryableNetworkFailure("CERT_HAS_EXPIRED", "certificate has expired")).to.equal(false);
  });

  it("retries timeouts of read-only operations only", () => {
    expect(isRetryableTimeout(false)).to.equal(true);
    expect(isRetryableTimeout(true)).to.equal(false);
  });

  it("backs off exponentially from 200 ms with equal jitter, capped", () => {
    expect(backoffDelayMs(1, 30_000, () => 0)).to.equal(BASE_DELAY_MS / 2);
    expect(backoffDelayMs(1, 30_000, () => 1)).to.equal(BASE_DELAY_MS);
    expect(backoffDelayMs(3, 30_000, () => 0)).to.equal(400);
    expect(backoffDelayMs(3, 30_000, () => 1)).to.equal(800);
    expect(backoffDelayMs(20, 5000, () => 1)).to.equal(5000);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelayMs(2, 30_000);
      expect(delay).to.be.within(200, 400);
    }
  });

  it("parses Retry-After seconds", () => {
    expect(parseRetryAfterMs("0")).to.equal(0);
    expect(parseRetryAfterMs(" 120 ")).to.equal(120_000);
  });

  it("parses Retry-After HTTP dates relative to now", () => {
    const now = Date.parse("2026-01-02T03:04:05Z");
    expect(parseRetryAfterMs("Fri, 02 Jan 2026 03:04:15 GMT", now)).to.equal(10_000);
    expect(parseRetryAfterMs("Fri, 02 Jan 2026 03:00:00 GMT", now)).to.equal(0);
  });

  it("ignores absent or unreadable Retry-After values", () => {
    for (const value of [null, undefined, "", "soon", "-5", "1.5", "Mon, 99 Foo 2026"]) {
      expect(parseRetryAfterMs(value), String(value)).to.equal(undefined);
    }
  });

  it("prefers Retry-After over backoff, both capped", () => {
    expect(retryDelayMs({ attempt: 1, capMs: 30_000, retryAfterMs: 2000 })).to.equal(2000);
    expect(retryDelayMs({ attempt: 1, capMs: 500, retryAfterMs: 3_600_000 })).to.equal(500);
    expect(retryDelayMs({ attempt: 1, capMs: 500, retryAfterMs: 0 })).to.equal(0);
    expect(retryDelayMs({ attempt: 2, capMs: 30_000, random: () => 0 })).to.equal(200);
  });
});
