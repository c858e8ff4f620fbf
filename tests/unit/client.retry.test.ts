/**
 * Retries, timeouts, the deadline and connection failures of a read (`getScan`), against a local
 * fake server. The retry classes of writes are in client.retryClasses.test.ts.
 */
import { expect } from "chai";
import {
  CodeSecApiError,
  CodeSecNetworkError,
  CodeSecRateLimitError,
  CodeSecResponseError,
  CodeSecTimeoutError,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from "../../client";
import { FakeServer, SAMPLES, TOKEN, assertNoSecret, refusedBaseUrl, rejection } from "../support/fakeServer";
import { CodeSecClient, type CodeSecClientOptions } from "../../client";

const SCAN_ARGS = { deploymentId: "42", scanId: "1001" };
const SCAN_OK = { status: 200, json: { scan: SAMPLES.scan } };

describe("CodeSecClient retries", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await FakeServer.start();
  });
  afterEach(async () => server.close());

  it("defaults: 10 s per attempt, 30 s per call, 3 retries, Retry-After up to 10 s", () => {
    expect([
      DEFAULT_TIMEOUT_MS,
      DEFAULT_DEADLINE_MS,
      DEFAULT_RETRIES,
      DEFAULT_MAX_RETRY_DELAY_MS,
    ]).to.deep.equal([10_000, 30_000, 3, 10_000]);
  });

  describe("429 Too Many Requests", () => {
    it("honours Retry-After in seconds", async () => {
      server.sequence(
        { status: 429, json: { message: "slow down" }, headers: { "retry-after": "1" } },
        SCAN_OK,
      );
      const started = Date.now();
      const scan = await server.client({ maxRetryDelayMs: 5000 }).getScan(SCAN_ARGS);
      expect(Date.now() - started).to.be.at.least(950);
      expect(scan.id).to.equal("1001");
      expect(server.requests).to.have.length(2);
    });

    it("honours Retry-After as an HTTP date within the cap", async () => {
      // HTTP dates have whole seconds: this one is 1 to 2 s away.
      const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
      server.sequence({ status: 429, headers: { "retry-after": inTwoSeconds } }, SCAN_OK);
      const started = Date.now();
      await server.client({ maxRetryDelayMs: 5000 }).getScan(SCAN_ARGS);
      expect(Date.now() - started).to.be.at.least(900);
      expect(server.requests).to.have.length(2);
    });

    it("fails at once when Retry-After is above maxRetryDelayMs, with the time to wait and how to raise the cap", async () => {
      server.always({
        status: 429,
        json: { error: { code: "RESOURCE_EXHAUSTED", message: "quota" } },
        headers: { "retry-after": "3600" },
      });
      const started = Date.now();
      const error = await rejection(
        server.client({ maxRetryDelayMs: 2000 }).getScan(SCAN_ARGS),
        CodeSecRateLimitError,
      );
      expect(Date.now() - started).to.be.below(4000);
      expect(server.requests).to.have.length(1);
      expect(error).to.be.instanceOf(CodeSecApiError);
      expect(error).to.include({
        status: 429,
        attempts: 1,
        retryAfterMs: 3_600_000,
        code: "RESOURCE_EXHAUSTED",
      });
      const retryAt = Date.parse(error.retryAt!);
      expect(retryAt - started).to.be.within(3_590_000, 3_610_000);
      expect(error.message)
        .to.include("3600 s")
        .and.include(error.retryAt!)
        .and.include("maxRetryDelayMs 2000 ms")
        .and.include("codesec:maxRetryDelayMs");
    });

    it("with the defaults, a Retry-After of 30 s fails at once instead of waiting", async () => {
      server.always({ status: 429, headers: { "retry-after": "30" } });
      const client = new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN });
      const error = await rejection(client.getScan(SCAN_ARGS), CodeSecRateLimitError);
      expect(error).to.include({ attempts: 1, retryAfterMs: 30_000 });
      expect(error.message).to.include(`maxRetryDelayMs ${DEFAULT_MAX_RETRY_DELAY_MS} ms`);
    });

    it("fails at once when Retry-After is within the cap but ends after the deadline", async () => {
      server.always({ status: 429, headers: { "retry-after": "2" } });
      const error = await rejection(
        server.client({ maxRetryDelayMs: 5000, deadlineMs: 1000 }).getScan(SCAN_ARGS),
        CodeSecRateLimitError,
      );
      expect(server.requests).to.have.length(1);
      expect(error).to.include({ retryAfterMs: 2000, deadlineReached: true });
      expect(error.message).to.include("deadline").and.include("codesec:deadlineMs");
    });

    it("gives up after the last attempt with a CodeSecRateLimitError", async () => {
      server.always({ status: 429, json: { error: { code: "RATE_LIMITED", message: "quota" } } });
      const error = await rejection(server.client({ retries: 2 }).getScan(SCAN_ARGS), CodeSecRateLimitError);
      expect(server.requests).to.have.length(3);
      expect(error).to.include({ status: 429, attempts: 3, retried: true, code: "RATE_LIMITED" });
      expect(error.retryAfterMs).to.equal(undefined);
      expect(error.message).to.include("after 3 attempts").and.include("try again later");
    });
  });

  for (const status of [502, 503, 504]) {
    it(`retries ${status} and then succeeds`, async () => {
      server.sequence({ status, text: "bad gateway" }, { status, text: "" }, SCAN_OK);
      const scan = await server.client().getScan(SCAN_ARGS);
      expect(scan.findingsCounts.total).to.equal(12);
      expect(server.requests).to.have.length(3);
    });
  }

  it("bounds the attempts at retries + 1, and says it is safe to run again", async () => {
    server.always({ status: 503, json: { error: { code: "UNAVAILABLE", message: "maintenance" } } });
    const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
    expect(server.requests).to.have.length(DEFAULT_RETRIES + 1);
    expect(error).to.include({ status: 503, attempts: 4, retried: true, operation: "getScan" });
    expect(error.message).to.include("maintenance").and.include("safe to run again");
  });

  it("does not retry when retries is 0", async () => {
    server.always({ status: 503 });
    const error = await rejection(server.client({ retries: 0 }).getScan(SCAN_ARGS), CodeSecApiError);
    expect(server.requests).to.have.length(1);
    expect(error).to.include({ attempts: 1, retried: false });
  });

  it("fails a 503 at once when its Retry-After is above the cap, giving the time", async () => {
    server.always({ status: 503, headers: { "retry-after": "600" } });
    const error = await rejection(
      server.client({ maxRetryDelayMs: 1000 }).getScan(SCAN_ARGS),
      CodeSecApiError,
    );
    expect(server.requests).to.have.length(1);
    expect(error.message).to.include("600 s").and.include("maxRetryDelayMs");
  });

  for (const status of [400, 401, 403, 404, 409, 410, 500]) {
    it(`never retries ${status}`, async () => {
      server.always({ status, json: { error: { code: "X", message: "no" } } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(server.requests).to.have.length(1);
      expect(error).to.include({ status, attempts: 1, retried: false });
    });
  }

  it("does not retry a malformed (non-JSON) 200 body", async () => {
    server.always({
      status: 200,
      text: "<html><body>Login</body></html>",
      headers: { "content-type": "text/html" },
    });
    const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecResponseError);
    expect(server.requests).to.have.length(1);
    expect(error.message).to.include("not JSON").and.include("text/html");
    expect(error.status).to.equal(200);
  });

  it("does not retry an empty 200 body where an object is expected", async () => {
    server.always({ status: 200, text: "" });
    const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecResponseError);
    expect(error.message).to.include("empty");
    expect(server.requests).to.have.length(1);
  });

  it("does not retry an oversized 200 body", async () => {
    server.always({ status: 200, text: "x".repeat(20 * 1024 * 1024 + 1) });
    const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecResponseError);
    expect(error.message).to.include("larger than 20971520 bytes");
    expect(server.requests).to.have.length(1);
  });

  describe("cut-off answers", () => {
    for (const chunked of [false, true]) {
      const framing = chunked ? "chunked" : "Content-Length";
      it(`fails a 2xx body cut off mid-way (${framing}) at once with a typed error`, async () => {
        server.always({ ...SCAN_OK, cutOffAfter: 20, chunked });
        const started = Date.now();
        const error = await rejection(
          server.client({ timeoutMs: 10_000, retries: 0 }).getScan(SCAN_ARGS),
          CodeSecNetworkError,
        );
        expect(Date.now() - started).to.be.below(5000);
        expect(error).to.include({ truncated: true, requestMayHaveArrived: true, attempts: 1 });
        expect(error.message).to.include("closed before the whole answer arrived").and.include("HTTP 200");
        assertNoSecret(error);
      });
    }

    it("retries a cut-off body of a read, then succeeds", async () => {
      server.sequence({ ...SCAN_OK, cutOffAfter: 20 }, SCAN_OK);
      const scan = await server.client({ timeoutMs: 10_000 }).getScan(SCAN_ARGS);
      expect(scan.id).to.equal("1001");
      expect(server.requests).to.have.length(2);
    });

    it("judges a cut-off error answer by its status", async () => {
      server.sequence({ status: 503, json: { message: "down for maintenance" }, cutOffAfter: 5 }, SCAN_OK);
      await server.client().getScan(SCAN_ARGS);
      expect(server.requests).to.have.length(2);
    });
  });

  describe("connection failures", () => {
    it("retries a connection refused, then fails naming the base URL", async () => {
      const baseUrl = await refusedBaseUrl();
      const client = server.client({ baseUrl, retries: 2 });
      const error = await rejection(client.getScan(SCAN_ARGS), CodeSecNetworkError);
      expect(error).to.include({
        code: "ECONNREFUSED",
        attempts: 3,
        retried: true,
        baseUrl,
        operation: "getScan",
        requestMayHaveArrived: false,
        truncated: false,
      });
      expect(error.message).to.include(baseUrl).and.include("CODESEC_BASE_URL");
      assertNoSecret(error);
    });

    it("retries a connection reset after the request arrived, then succeeds", async () => {
      server.sequence({ destroy: true }, { destroy: true }, SCAN_OK);
      const scan = await server.client().getScan(SCAN_ARGS);
      expect(scan.id).to.equal("1001");
      expect(server.requests).to.have.length(3);
    });

    it("gives up on resets after the last attempt", async () => {
      server.always({ destroy: true });
      const error = await rejection(server.client({ retries: 1 }).getScan(SCAN_ARGS), CodeSecNetworkError);
      expect(server.requests).to.have.length(2);
      expect(error).to.include({
        attempts: 2,
        retried: true,
        code: "ECONNRESET",
        requestMayHaveArrived: true,
      });
      expect(error.message).to.include("socket hang up");
    });
  });

  describe("timeouts", () => {
    it("fails a slow read with CodeSecTimeoutError naming timeoutMs, after retrying it", async () => {
      server.always({ delayMs: 2000, json: { scan: SAMPLES.scan } });
      const error = await rejection(
        server.client({ timeoutMs: 100, retries: 1 }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(error).to.include({ timeoutMs: 100, attempts: 2, retried: true, operation: "getScan" });
      expect(error.message).to.include("100 ms").and.include("timeoutMs").and.include("codesec:timeoutMs");
      expect(server.requests).to.have.length(2);
      assertNoSecret(error);
    });

    it("times out a body that stalls after its first bytes, at timeoutMs", async () => {
      server.always({ ...SCAN_OK, stallAfter: 20 });
      const started = Date.now();
      const error = await rejection(
        server.client({ timeoutMs: 300, retries: 0 }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(Date.now() - started).to.be.at.least(290);
      expect(error).to.include({ timeoutMs: 300, requestMayHaveArrived: true });
    });

    it("does not time out an answer that arrives in time", async () => {
      server.always({ delayMs: 50, json: { scan: SAMPLES.scan } });
      const scan = await server.client({ timeoutMs: 2000 }).getScan(SCAN_ARGS);
      expect(scan.id).to.equal("1001");
    });
  });

  describe("the deadline", () => {
    it("bounds a call that keeps timing out: well under retries x timeoutMs", async () => {
      server.always({ delayMs: 10_000, json: { scan: SAMPLES.scan } });
      const started = Date.now();
      const error = await rejection(
        server.client({ timeoutMs: 1000, deadlineMs: 1500, retries: 3 }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      // 4 attempts of 1 s would take over 4 s; the deadline ends the call at 1.5 s.
      expect(Date.now() - started).to.be.below(3000);
      expect(error).to.include({ attempts: 2, deadlineReached: true });
      expect(error.timeoutMs).to.be.below(1000);
      expect(error.message)
        .to.include("deadline was reached")
        .and.include("deadlineMs 1500 ms")
        .and.include("codesec:deadlineMs");
    });

    it("a deadlineLabel names what chose the deadline, in place of deadlineMs, in every deadline message", async () => {
      const deadlineLabel = { limit: "the step's limit (1.5 s)", raise: "the step's limit" };
      server.always({ delayMs: 10_000, json: { scan: SAMPLES.scan } });
      const timedOut = await rejection(
        server.client({ timeoutMs: 1000, deadlineMs: 1500, deadlineLabel }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(timedOut.message).to.include(
        "The call's deadline was reached (the step's limit (1.5 s)), so it was not tried again.",
      );
      server.always({ status: 429, headers: { "retry-after": "2" } });
      const limited = await rejection(
        server.client({ maxRetryDelayMs: 5000, deadlineMs: 1000, deadlineLabel }).getScan(SCAN_ARGS),
        CodeSecRateLimitError,
      );
      expect(limited.message).to.include(
        "past the call's deadline (the step's limit (1.5 s)). Run again after that time, or raise the " +
          "deadline: the step's limit.",
      );
      for (const error of [timedOut, limited]) expect(error.message).not.to.include("deadlineMs");
    });

    it("after an attempt the deadline cut short, the advice names the deadline, not timeoutMs", async () => {
      server.always({ delayMs: 10_000, json: { scan: SAMPLES.scan } });
      const deadlineLabel = { limit: "the step's limit (0.3 s)", raise: "the step's limit" };
      const labelled = await rejection(
        server.client({ timeoutMs: 5000, deadlineMs: 300, deadlineLabel }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(labelled).to.include({ attempts: 1, deadlineReached: true });
      expect(labelled.message).to.include("To wait longer, raise the deadline: the step's limit.");
      expect(labelled.message).not.to.include("timeoutMs (");
      const plain = await rejection(
        server.client({ timeoutMs: 5000, deadlineMs: 300 }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(plain.message).to.include(
        "To wait longer, raise the deadline: client option deadlineMs, stack config codesec:deadlineMs.",
      );
      expect(plain.message).not.to.include("raise timeoutMs");
    });

    it("refuses a deadlineLabel that is not two short lines of printable text", () => {
      const long = "x".repeat(201);
      for (const deadlineLabel of [
        { limit: "x" },
        { limit: "x", raise: "a\nb" },
        { limit: "x", raise: "a\u001b[31mb" },
        { limit: "x\u0000", raise: "b" },
        { limit: "x\u2028", raise: "b" },
        { limit: "x\t", raise: "b" },
        { limit: long, raise: "b" },
        { limit: "x", raise: long },
        "x",
        null,
      ]) {
        expect(
          () => new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, deadlineLabel } as never),
          JSON.stringify(deadlineLabel),
        )
          .to.throw(
            /deadlineLabel must be an object \{ limit, raise \} of two lines of at most 200 characters/,
          )
          .with.property("field", "deadlineLabel");
      }
      // The longest label accepted: 200 characters each.
      const longest = { limit: "x".repeat(200), raise: "y".repeat(200) };
      expect(
        () => new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, deadlineLabel: longest }),
      ).not.to.throw();
    });

    it("refuses an unknown key in a deadlineLabel as every other unknown client option", () => {
      const deadlineLabel = { limit: "x", raise: "y", rasie: "z" };
      expect(() => new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, deadlineLabel }))
        .to.throw('unknown deadlineLabel option "rasie"; the options are limit, raise')
        .with.property("field", "deadlineLabel.rasie");
    });

    describe("settingNames: where a caller's users set each setting, in every message that names one", () => {
      const settingNames = {
        baseUrl: "the base URL input",
        token: "the token input",
        timeoutMs: "the timeout input",
        deadlineMs: "the deadline input",
        maxRetryDelayMs: "the delay cap input",
      };

      /** Each failure, the options that cause it, and the words with and without settingNames. */
      const failures: {
        what: string;
        arrange: () => Promise<{ baseUrl?: string; options: Partial<CodeSecClientOptions> }>;
        named: string;
        byDefault: string;
      }[] = [
        {
          what: "a timeout",
          arrange: async () => {
            server.always({ delayMs: 10_000, json: { scan: SAMPLES.scan } });
            return { options: { timeoutMs: 200, retries: 0 } };
          },
          named: "To wait longer, raise timeoutMs (the timeout input).",
          byDefault: "To wait longer, raise timeoutMs (stack config codesec:timeoutMs).",
        },
        {
          what: "the deadline reached",
          arrange: async () => {
            server.always({ delayMs: 10_000, json: { scan: SAMPLES.scan } });
            return { options: { timeoutMs: 200, deadlineMs: 300, retries: 3 } };
          },
          named: "The call's deadline was reached (deadlineMs 300 ms, the deadline input)",
          byDefault: "The call's deadline was reached (deadlineMs 300 ms, stack config codesec:deadlineMs)",
        },
        {
          what: "a Retry-After past the deadline",
          arrange: async () => {
            server.always({ status: 429, headers: { "retry-after": "2" } });
            return { options: { maxRetryDelayMs: 5000, deadlineMs: 1000 } };
          },
          named: "or raise the deadline: the deadline input.",
          byDefault: "or raise the deadline: client option deadlineMs, stack config codesec:deadlineMs.",
        },
        {
          what: "a Retry-After above the cap",
          arrange: async () => {
            server.always({ status: 503, headers: { "retry-after": "60" } });
            return { options: { maxRetryDelayMs: 1000 } };
          },
          named: "or raise the cap: the delay cap input.",
          byDefault: "or raise the cap: client option maxRetryDelayMs, stack config codesec:maxRetryDelayMs.",
        },
        {
          what: "a 401",
          arrange: async () => {
            server.always({ status: 401, json: { message: "bad token" } });
            return { options: {} };
          },
          named: "Set a valid API token or user JWT where this connection's token is set (the token input).",
          byDefault:
            "Set a valid API token or user JWT where this connection's token is set (the client's token " +
            "option; for the provider package, the named connection's codesec:connections.<name>.token, " +
            "codesec:token, or CODESEC_TOKEN).",
        },
        {
          what: "a redirect",
          arrange: async () => {
            server.always({ status: 302, headers: { location: "https://elsewhere.example/api" } });
            return { options: {} };
          },
          named: "Set the base URL (the base URL input) to the platform API's final address.",
          byDefault:
            "Set the base URL (codesec:baseUrl / CODESEC_BASE_URL) to the platform API's final address.",
        },
        {
          what: "a 404 under a base URL with a path",
          arrange: async () => {
            server.always({ status: 404 });
            return { baseUrl: `${server.baseUrl}/codesec`, options: {} };
          },
          named: "drop it from the base URL (the base URL input).",
          byDefault: "drop it from the base URL (codesec:baseUrl / CODESEC_BASE_URL).",
        },
        {
          what: "another 4xx",
          arrange: async () => {
            server.always({ status: 418 });
            return { options: {} };
          },
          named: "Check the arguments and the base URL (the base URL input).",
          byDefault: "Check the arguments and the base URL (codesec:baseUrl / CODESEC_BASE_URL).",
        },
        {
          what: "an unreachable platform",
          arrange: async () => ({ baseUrl: await refusedBaseUrl(), options: { retries: 0 } }),
          named: "Check the base URL (the base URL input) and that the platform is reachable",
          byDefault:
            "Check the base URL (codesec:baseUrl / CODESEC_BASE_URL) and that the platform is reachable",
        },
      ];

      for (const failure of failures) {
        it(`${failure.what}: the given names replace the client option and stack config; without, as before`, async () => {
          for (const names of [settingNames, undefined]) {
            const { baseUrl = server.baseUrl, options } = await failure.arrange();
            const client = new CodeSecClient({
              baseUrl,
              token: TOKEN,
              ...options,
              ...(names === undefined ? {} : { settingNames: names }),
            });
            const error = await rejection(client.getScan(SCAN_ARGS), Error);
            if (names === undefined) {
              expect(error.message).to.include(failure.byDefault);
            } else {
              expect(error.message).to.include(failure.named);
              expect(error.message).not.to.match(/codesec:|stack config|client option|CODESEC_/);
            }
          }
        });
      }

      it("beside a deadlineLabel, the label names the deadline and settingNames every other setting", async () => {
        // settingNames.deadlineMs says where deadlineMs is set; a label says that something else chose
        // this client's deadline (a resource's customTimeouts), so naming deadlineMs there would be wrong.
        const deadlineLabel = { limit: "the step's limit (0.3 s)", raise: "the step's limit" };
        const client = (options: Partial<CodeSecClientOptions>) =>
          server.client({ ...options, settingNames, deadlineLabel });
        server.always({ delayMs: 10_000, json: { scan: SAMPLES.scan } });
        const timedOut = await rejection(
          client({ timeoutMs: 200, deadlineMs: 300, retries: 3 }).getScan(SCAN_ARGS),
          CodeSecTimeoutError,
        );
        expect(timedOut.message)
          .to.include(
            "The call's deadline was reached (the step's limit (0.3 s)), so it was not tried again.",
          )
          .and.include(
            "To wait longer, raise the deadline: the step's limit; each attempt is also bounded by timeoutMs " +
              "(the timeout input).",
          );
        server.always({ status: 429, headers: { "retry-after": "2" } });
        const limited = await rejection(
          client({ maxRetryDelayMs: 5000, deadlineMs: 1000 }).getScan(SCAN_ARGS),
          CodeSecRateLimitError,
        );
        expect(limited.message).to.include("or raise the deadline: the step's limit.");
        for (const error of [timedOut, limited]) {
          expect(error.message).not.to.include("the deadline input");
          expect(error.message).not.to.include("deadlineMs");
        }
      });

      it("a part left out keeps its default words", async () => {
        server.always({ status: 401, json: { message: "bad token" } });
        const client = server.client({ settingNames: { baseUrl: "the base URL input" } });
        const error = await rejection(client.getScan(SCAN_ARGS), CodeSecApiError);
        expect(error.message).to.include("codesec:connections.<name>.token, codesec:token, or CODESEC_TOKEN");
      });

      it("refuses settingNames that are not an object of short lines of printable text", () => {
        const long = "x".repeat(201);
        for (const names of [
          { timeoutMs: "" },
          { timeoutMs: "a\nb" },
          { token: "a\u001b[31mb" },
          { baseUrl: long },
          { deadlineMs: 5 },
          "x",
          null,
          [],
        ]) {
          expect(
            () => new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, settingNames: names } as never),
            JSON.stringify(names),
          )
            .to.throw(/settingNames must be an object of lines of at most 200 characters/)
            .with.property("field", "settingNames");
        }
        const longest = { baseUrl: "x".repeat(200) };
        expect(
          () => new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, settingNames: longest }),
        ).not.to.throw();
      });

      it("refuses an unknown key in settingNames as every other unknown client option", () => {
        const names = { timeoutMs: "x", retries: "y" };
        expect(() => new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, settingNames: names }))
          .to.throw(
            'unknown settingNames option "retries"; the options are baseUrl, token, timeoutMs, deadlineMs, maxRetryDelayMs',
          )
          .with.property("field", "settingNames.retries");
      });
    });

    it("bounds a persistent 503 whose Retry-After waits would pass it", async () => {
      server.always({ status: 503, json: { message: "maintenance" }, headers: { "retry-after": "1" } });
      const started = Date.now();
      const error = await rejection(
        server.client({ deadlineMs: 1500, maxRetryDelayMs: 5000, retries: 3 }).getScan(SCAN_ARGS),
        CodeSecApiError,
      );
      expect(Date.now() - started).to.be.below(3000);
      expect(server.requests).to.have.length(2);
      expect(error).to.include({ status: 503, attempts: 2, deadlineReached: true });
      expect(error.message).to.include("deadline").and.include("codesec:deadlineMs");
    });

    it("bounds backoff: a retry whose wait would end after the deadline is not made", async () => {
      server.always({ status: 502 });
      const error = await rejection(
        server.client({ deadlineMs: 150, maxRetryDelayMs: 10_000, retries: 10 }).getScan(SCAN_ARGS),
        CodeSecApiError,
      );
      // The first backoff is 100-200 ms, and a retry needs 100 ms of its own: it does not fit in 150 ms.
      expect(server.requests).to.have.length(1);
      expect(error).to.include({ status: 502, deadlineReached: true });
    });
  });
});
