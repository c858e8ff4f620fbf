/** Retries, timeouts and connection failures of the client, against a local fake server. */
import { expect } from "chai";
import {
  CodeSecApiError,
  CodeSecNetworkError,
  CodeSecResponseError,
  CodeSecTimeoutError,
  DEFAULT_RETRIES,
} from "../../sdk";
import { FakeServer, SAMPLES, assertNoSecret, refusedBaseUrl, rejection } from "../support/fakeServer";

const SCAN_ARGS = { deploymentId: "42", scanId: "1001" };
const SCAN_OK = { status: 200, json: { scan: SAMPLES.scan } };

describe("CodeSecClient retries", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await FakeServer.start();
  });
  afterEach(async () => server.close());

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

    it("honours Retry-After as an HTTP date, capped by maxRetryDelayMs", async () => {
      const inTwoSeconds = new Date(Date.now() + 2500).toUTCString();
      server.sequence({ status: 429, headers: { "retry-after": inTwoSeconds } }, SCAN_OK);
      const started = Date.now();
      await server.client({ maxRetryDelayMs: 300 }).getScan(SCAN_ARGS);
      const elapsed = Date.now() - started;
      expect(elapsed).to.be.at.least(280);
      expect(elapsed).to.be.below(1500);
      expect(server.requests).to.have.length(2);
    });

    it("caps a huge Retry-After at maxRetryDelayMs", async () => {
      server.sequence({ status: 429, headers: { "retry-after": "3600" } }, SCAN_OK);
      const started = Date.now();
      await server.client({ maxRetryDelayMs: 50 }).getScan(SCAN_ARGS);
      expect(Date.now() - started).to.be.below(1500);
      expect(server.requests).to.have.length(2);
    });

    it("gives up after the last attempt with a try-again-later error", async () => {
      server.always({
        status: 429,
        json: { error: { code: "RATE_LIMITED", message: "quota" } },
        headers: { "retry-after": "7" },
      });
      const error = await rejection(server.client({ retries: 2 }).getScan(SCAN_ARGS), CodeSecApiError);
      expect(server.requests).to.have.length(3);
      expect(error).to.include({
        status: 429,
        attempts: 3,
        retried: true,
        code: "RATE_LIMITED",
        operation: "getScan",
      });
      expect(error.message)
        .to.include("after 3 attempts")
        .and.include("try again later")
        .and.include("wait 7 s");
    });

    it("retries a mutating operation too (the request was refused, not applied)", async () => {
      server.sequence({ status: 429 }, { status: 200, json: {} });
      await server.client().updateUserRole({ deploymentId: "42", userId: "u-2", newRole: "ORG_ROLE_MEMBER" });
      expect(server.requests).to.have.length(2);
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

  it("mixes 502, 503 and 504 before success within the default budget", async () => {
    server.sequence({ status: 502 }, { status: 503 }, { status: 504 }, SCAN_OK);
    await server.client().getScan(SCAN_ARGS);
    expect(server.requests).to.have.length(DEFAULT_RETRIES + 1);
  });

  it("bounds the attempts at retries + 1", async () => {
    server.always({ status: 503, json: { error: { code: "UNAVAILABLE", message: "maintenance" } } });
    const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
    expect(server.requests).to.have.length(DEFAULT_RETRIES + 1);
    expect(error).to.include({ status: 503, attempts: 4, retried: true, operationNumber: 6 });
    expect(error.message).to.include("try again later");
  });

  it("does not retry when retries is 0", async () => {
    server.always({ status: 503 });
    const error = await rejection(server.client({ retries: 0 }).getScan(SCAN_ARGS), CodeSecApiError);
    expect(server.requests).to.have.length(1);
    expect(error).to.include({ attempts: 1, retried: false });
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
      });
      expect(error.message).to.include(baseUrl).and.include("CODESEC_BASE_URL");
      assertNoSecret(error);
    });

    it("retries a connection reset before any response, then succeeds", async () => {
      server.sequence({ destroy: true }, { destroy: true }, SCAN_OK);
      const scan = await server.client().getScan(SCAN_ARGS);
      expect(scan.id).to.equal("1001");
      expect(server.requests).to.have.length(3);
    });

    it("retries a reset before any response for a mutating operation (every operation is idempotent)", async () => {
      server.sequence({ destroy: true }, { status: 200, json: SAMPLES.subscription });
      const result = await server.client().subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" });
      expect(result.configId).to.equal("cfg-1");
      expect(server.requests).to.have.length(2);
    });

    it("gives up on resets after the last attempt", async () => {
      server.always({ destroy: true });
      const error = await rejection(server.client({ retries: 1 }).getScan(SCAN_ARGS), CodeSecNetworkError);
      expect(server.requests).to.have.length(2);
      expect(error).to.include({ attempts: 2, retried: true, code: "ECONNRESET" });
      expect(error.message).to.include("socket hang up");
    });
  });

  describe("timeouts", () => {
    it("fails a slow read with CodeSecTimeoutError naming timeoutMs, retried because it is read-only", async () => {
      server.always({ delayMs: 2000, json: { scan: SAMPLES.scan } });
      const error = await rejection(
        server.client({ timeoutMs: 100, retries: 1 }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(error).to.include({ timeoutMs: 100, attempts: 2, retried: true, operation: "getScan" });
      expect(error.message).to.include("100 ms").and.include("timeoutMs");
      expect(server.requests).to.have.length(2);
      assertNoSecret(error);
    });

    it("does not retry a timed-out mutating operation (it may have been applied)", async () => {
      server.always({ delayMs: 2000, json: SAMPLES.subscription });
      const error = await rejection(
        server.client({ timeoutMs: 100 }).subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" }),
        CodeSecTimeoutError,
      );
      expect(error).to.include({ attempts: 1, retried: false });
      expect(error.message).to.include("not retried").and.include("may already have been applied");
      expect(server.requests).to.have.length(1);
    });

    it("times out a body that stalls after the headers", async () => {
      server.always({ bodyDelayMs: 2000, json: { scan: SAMPLES.scan } });
      const error = await rejection(
        server.client({ timeoutMs: 150, retries: 0 }).getScan(SCAN_ARGS),
        CodeSecTimeoutError,
      );
      expect(error.timeoutMs).to.equal(150);
    });

    it("does not time out an answer that arrives in time", async () => {
      server.always({ delayMs: 50, json: { scan: SAMPLES.scan } });
      const scan = await server.client({ timeoutMs: 2000 }).getScan(SCAN_ARGS);
      expect(scan.id).to.equal("1001");
    });
  });
});
