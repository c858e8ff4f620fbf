/** The retry policy's pure parts: the decision per retry class, backoff, Retry-After, the deadline. */
import { expect } from "chai";
import type { RetryClass } from "../../client";
import {
  BASE_DELAY_MS,
  MIN_ATTEMPT_MS,
  backoffDelayMs,
  decideRetry,
  isTransientNetworkFailure,
  parseRetryAfterMs,
  planRetryWait,
  type AttemptFailure,
  type RetryDecision,
} from "../../client/retryPolicy";

const refused: AttemptFailure = {
  kind: "network",
  mayHaveArrived: false,
  code: "ECONNREFUSED",
  reason: "connect",
};
const notFound: AttemptFailure = {
  kind: "network",
  mayHaveArrived: false,
  code: "ENOTFOUND",
  reason: "getaddrinfo",
};
const dnsAgain: AttemptFailure = {
  kind: "network",
  mayHaveArrived: false,
  code: "EAI_AGAIN",
  reason: "getaddrinfo",
};
const tls: AttemptFailure = {
  kind: "network",
  mayHaveArrived: false,
  code: "EPROTO",
  reason: "wrong version number",
};
const reset: AttemptFailure = {
  kind: "network",
  mayHaveArrived: true,
  code: "ECONNRESET",
  reason: "read ECONNRESET",
};
const hangUp: AttemptFailure = { kind: "network", mayHaveArrived: true, reason: "socket hang up" };
const connectTimeout: AttemptFailure = { kind: "timeout", mayHaveArrived: false };
const timeout: AttemptFailure = { kind: "timeout", mayHaveArrived: true };
const truncated: AttemptFailure = { kind: "truncated" };
const unusable: AttemptFailure = { kind: "unusable" };
const status = (code: number): AttemptFailure => ({ kind: "status", status: code });

// [failure, read, idempotentWrite, once]
const TABLE: [string, AttemptFailure, RetryDecision, RetryDecision, RetryDecision][] = [
  ["429", status(429), "retry", "retry", "retry"],
  ["502", status(502), "retry", "retry", "outcomeUnknown"],
  ["503", status(503), "retry", "retry", "outcomeUnknown"],
  ["504", status(504), "retry", "retry", "outcomeUnknown"],
  ["500", status(500), "fail", "fail", "outcomeUnknown"],
  ["501", status(501), "fail", "fail", "outcomeUnknown"],
  ["400", status(400), "fail", "fail", "fail"],
  ["401", status(401), "fail", "fail", "fail"],
  ["403", status(403), "fail", "fail", "fail"],
  ["404", status(404), "fail", "fail", "fail"],
  ["409", status(409), "fail", "fail", "fail"],
  ["301", status(301), "fail", "fail", "fail"],
  ["refused", refused, "retry", "retry", "retry"],
  ["name try-again", dnsAgain, "retry", "retry", "retry"],
  ["name not found", notFound, "fail", "fail", "fail"],
  ["TLS handshake", tls, "fail", "fail", "fail"],
  ["connect timeout", connectTimeout, "retry", "retry", "retry"],
  ["reset after sending", reset, "retry", "retry", "outcomeUnknown"],
  ["socket hang up", hangUp, "retry", "retry", "outcomeUnknown"],
  ["timeout after sending", timeout, "retry", "retry", "outcomeUnknown"],
  ["cut-off body", truncated, "retry", "retry", "outcomeUnknown"],
  ["unusable 2xx", unusable, "fail", "fail", "fail"],
];

describe("client retry policy", () => {
  const classes: RetryClass[] = ["read", "idempotentWrite", "once"];
  for (const [name, failure, ...expected] of TABLE) {
    it(`${name}: ${classes.map((c, i) => `${c} ${expected[i]}`).join(", ")}`, () => {
      expect(classes.map((retryClass) => decideRetry(retryClass, failure))).to.deep.equal(expected);
    });
  }

  it("treats a failure after arrival as unknown for `once` even when its code is not transient", () => {
    const brokenAfterSending: AttemptFailure = {
      kind: "network",
      mayHaveArrived: true,
      code: "EPROTO",
      reason: "x",
    };
    expect(decideRetry("once", brokenAfterSending)).to.equal("outcomeUnknown");
    expect(decideRetry("read", brokenAfterSending)).to.equal("fail");
  });

  it("knows the transient connection failures", () => {
    for (const code of [
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "ETIMEDOUT",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "EAI_AGAIN",
    ]) {
      expect(isTransientNetworkFailure(code, ""), code).to.equal(true);
    }
    expect(isTransientNetworkFailure(undefined, "socket hang up")).to.equal(true);
    expect(isTransientNetworkFailure("ENOTFOUND", "getaddrinfo ENOTFOUND nohost")).to.equal(false);
    expect(isTransientNetworkFailure("CERT_HAS_EXPIRED", "certificate has expired")).to.equal(false);
  });

  it("backs off exponentially from 200 ms with equal jitter, capped", () => {
    expect(backoffDelayMs(1, 30_000, () => 0)).to.equal(BASE_DELAY_MS / 2);
    expect(backoffDelayMs(1, 30_000, () => 1)).to.equal(BASE_DELAY_MS);
    expect(backoffDelayMs(3, 30_000, () => 0)).to.equal(400);
    expect(backoffDelayMs(3, 30_000, () => 1)).to.equal(800);
    expect(backoffDelayMs(20, 5000, () => 1)).to.equal(5000);
    for (let i = 0; i < 100; i++) {
      expect(backoffDelayMs(2, 30_000)).to.be.within(200, 400);
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

  describe("the wait before a retry", () => {
    const base = { attempt: 1, capMs: 10_000, remainingMs: 30_000, timeoutMs: 10_000, random: () => 0 };

    it("honours a Retry-After up to the cap as it is, never shortened", () => {
      expect(planRetryWait({ ...base, retryAfterMs: 2000 })).to.deep.equal({ kind: "wait", ms: 2000 });
      expect(planRetryWait({ ...base, retryAfterMs: 10_000 })).to.deep.equal({ kind: "wait", ms: 10_000 });
      expect(planRetryWait({ ...base, retryAfterMs: 0 })).to.deep.equal({ kind: "wait", ms: 0 });
    });

    it("refuses a Retry-After above the cap", () => {
      expect(planRetryWait({ ...base, retryAfterMs: 10_001 })).to.deep.equal({
        kind: "retryAfterAboveCap",
        retryAfterMs: 10_001,
      });
    });

    it("backs off when there is no Retry-After", () => {
      expect(planRetryWait({ ...base, attempt: 2 })).to.deep.equal({ kind: "wait", ms: 200 });
    });

    it("stops when the wait and a minimal attempt do not fit before the deadline", () => {
      expect(
        planRetryWait({ ...base, retryAfterMs: 2000, remainingMs: 2000 + MIN_ATTEMPT_MS }),
      ).to.deep.equal({
        kind: "wait",
        ms: 2000,
      });
      expect(
        planRetryWait({ ...base, retryAfterMs: 2000, remainingMs: 2000 + MIN_ATTEMPT_MS - 1 }),
      ).to.deep.equal({
        kind: "pastDeadline",
        waitMs: 2000,
      });
      expect(planRetryWait({ ...base, remainingMs: 150 })).to.deep.equal({
        kind: "pastDeadline",
        waitMs: 100,
      });
      // A timeout shorter than MIN_ATTEMPT_MS is all an attempt needs.
      expect(planRetryWait({ ...base, remainingMs: 150, timeoutMs: 50 })).to.deep.equal({
        kind: "wait",
        ms: 100,
      });
    });
  });
});
