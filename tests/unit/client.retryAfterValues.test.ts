/**
 * Every `Retry-After` a server can send, through each of the ten operations: huge, negative, fractional,
 * not a number, an HTTP date far in the past or the future, dates that overflow `Date`, and text that
 * only looks like a date. Each call ends in success or a typed CodeSecError that names the operation and
 * the status; none throws a bare RangeError or computes an invalid date, and a value the client cannot
 * read is treated as absent (backoff), never as "retry now".
 */
import { expect } from "chai";
import {
  CodeSecError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  OPERATIONS,
  type CodeSecClient,
  type OperationKey,
} from "../../client";
import { MAX_RETRY_AFTER_MS, parseRetryAfterMs } from "../../client/retryPolicy";
import { FakeServer } from "../support/fakeServer";
import { OPERATION_ANSWERS, OPERATION_CALLS, OPERATION_KEYS } from "../support/operationCalls";

/** Waits longer than any client waits on its own: the call fails at once with the time to wait. */
const ABOVE_CAP = [
  "3600",
  "2147483648",
  "8640000000000",
  "8640000000001",
  "9".repeat(400),
  "Fri, 31 Dec 9999 23:59:59 GMT",
  "Friday, 31-Dec-49 23:59:59 GMT",
  "Fri Dec 31 23:59:59 9999",
];

/** Dates in the past: the platform accepts requests again now. */
const PAST = ["Thu, 01 Jan 1970 00:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"];

/** Neither delta-seconds nor an HTTP date: as if absent (backoff), never a wait of 0. */
const UNREADABLE = [
  "-1",
  "-8640000000000",
  "1.5",
  "1e400",
  "NaN",
  "Infinity",
  "0x10",
  "x 1",
  "foo 12",
  "Sat, 13 Sep 275760 00:00:01 GMT",
  "Tue, 31 Feb 2026 00:00:00 GMT",
  "Thu, 01 Jan 2026 24:00:00 GMT",
  "Thu, 01 Jan 2026 00:00:00 UTC",
  "2026-01-01T00:00:00Z",
  "Thu, 01 Jan 10000 00:00:00 GMT",
];

async function failure(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

function expectTyped(error: Error, operation: OperationKey): asserts error is CodeSecError {
  expect(error, `${error.name}: ${error.message}`).to.be.instanceOf(CodeSecError);
  expect(error.message).to.include(`CodeSec ${operation} (${OPERATIONS[operation].method} /api/`);
}

describe("CodeSecClient and every Retry-After value", () => {
  let server: FakeServer;
  before(async () => {
    server = await FakeServer.start();
  });
  after(async () => server.close());
  beforeEach(() => server.requests.splice(0));

  // Backoff waits of at most 5 ms keep the matrix fast; a Retry-After above 2 s is above the cap.
  const client = (retries: number, maxRetryDelayMs = 2000): CodeSecClient =>
    server.client({ retries, maxRetryDelayMs });

  for (const operation of OPERATION_KEYS) {
    const call = OPERATION_CALLS[operation];
    describe(operation, () => {
      it("a wait above the cap fails at once with a valid date to come back, for 429 and 503", async () => {
        for (const value of ABOVE_CAP) {
          for (const retries of [0, 3]) {
            server.requests.splice(0);
            server.always({ status: 429, json: { message: "slow down" }, headers: { "retry-after": value } });
            const limited = await failure(call(client(retries)));
            expectTyped(limited, operation);
            expect(limited, value).to.be.instanceOf(CodeSecRateLimitError);
            const error = limited as CodeSecRateLimitError;
            expect(server.requests, value).to.have.length(1);
            // Without retries there is no wait to refuse: the message only says when to run again.
            const advice = retries === 0 ? "run again after that time" : "longer than this client waits";
            expect(error.message, value).to.include("HTTP 429").and.include(advice);
            expect(error.retryAfterMs, value).to.be.above(2000).and.at.most(MAX_RETRY_AFTER_MS);
            expect(new Date(error.retryAt!).toISOString(), value).to.equal(error.retryAt);
            expect(error.message, value).to.include(error.retryAt!);

            server.requests.splice(0);
            server.always({ status: 503, headers: { "retry-after": value } });
            const unavailable = await failure(call(client(retries)));
            expectTyped(unavailable, operation);
            expect(unavailable.message, value).to.include("HTTP 503");
            expect(server.requests, value).to.have.length(1);
            if (!(unavailable instanceof CodeSecOutcomeUnknownError)) {
              expect(unavailable.message, value).to.include(advice);
            }
          }
        }
      });

      it("a date in the past is honoured as no wait", async () => {
        for (const value of PAST) {
          server.requests.splice(0);
          server.sequence(
            { status: 429, headers: { "retry-after": value } },
            { json: OPERATION_ANSWERS[operation] },
          );
          await call(client(1, 5));
          expect(server.requests, value).to.have.length(2);
        }
      });

      it("a value that is neither delta-seconds nor an HTTP date is ignored: backoff, then a typed error", async () => {
        for (const value of UNREADABLE) {
          server.requests.splice(0);
          server.always({ status: 429, headers: { "retry-after": value } });
          const error = await failure(call(client(1, 5)));
          expectTyped(error, operation);
          expect(error, value).to.be.instanceOf(CodeSecRateLimitError);
          expect(server.requests, value).to.have.length(2);
          expect((error as CodeSecRateLimitError).retryAfterMs, value).to.equal(undefined);
          expect(error.message, value).not.to.include("asks to wait");

          server.requests.splice(0);
          server.always({ status: 429, headers: { "retry-after": value } });
          const unretried = await failure(call(client(0)));
          expectTyped(unretried, operation);
          expect(unretried.message, value).not.to.include("asks to wait");
        }
      });
    });
  }
});

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2026-01-02T03:04:05Z");

  it("caps delta-seconds at 2^31 s (RFC 9111), so that now + the wait is always a valid date", () => {
    expect(MAX_RETRY_AFTER_MS).to.equal(2 ** 31 * 1000);
    expect(parseRetryAfterMs("2147483647", now)).to.equal(2_147_483_647_000);
    for (const value of ["2147483648", "8640000000000", "9".repeat(400)]) {
      expect(parseRetryAfterMs(value, now), value).to.equal(MAX_RETRY_AFTER_MS);
    }
    expect(new Date(now + MAX_RETRY_AFTER_MS).toISOString()).to.equal("2094-01-20T06:18:13.000Z");
  });

  it("caps a date further away than that the same way", () => {
    expect(parseRetryAfterMs("Fri, 31 Dec 9999 23:59:59 GMT", now)).to.equal(MAX_RETRY_AFTER_MS);
  });

  it("reads the three HTTP-date forms of RFC 9110, day and month names in any case", () => {
    const at = "Fri, 02 Jan 2026 03:04:15 GMT";
    expect(parseRetryAfterMs(at, now)).to.equal(10_000);
    expect(parseRetryAfterMs("friday, 02-jan-26 03:04:15 gmt", now)).to.equal(10_000);
    expect(parseRetryAfterMs("Fri Jan  2 03:04:15 2026", now)).to.equal(10_000);
    expect(parseRetryAfterMs("Fri Jan 2 03:04:15 2026", now)).to.equal(10_000);
  });

  it("reads a two-digit year more than 50 years ahead as the century before (RFC 9110)", () => {
    // 2026 + 50 = 2076: "75" is 2075, "77" is 1977 (in the past: no wait).
    expect(parseRetryAfterMs("Monday, 01-Jan-75 00:00:00 GMT", now)).to.equal(
      Date.parse("2075-01-01T00:00:00Z") - now,
    );
    expect(parseRetryAfterMs("Saturday, 01-Jan-77 00:00:00 GMT", now)).to.equal(0);
  });

  it("treats a date in the past as no wait", () => {
    expect(parseRetryAfterMs("Thu, 01 Jan 1970 00:00:00 GMT", now)).to.equal(0);
  });

  it("refuses anything else, including what Date.parse would guess a date from", () => {
    for (const value of UNREADABLE) {
      expect(parseRetryAfterMs(value, now), value).to.equal(undefined);
    }
  });
});
