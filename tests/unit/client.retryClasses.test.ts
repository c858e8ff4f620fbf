/**
 * Retry classes of the writes: `completeScmAppRequest` (`once`, a one-time code) is never sent again once its
 * request may have arrived; idempotent writes (updateUserRole, provisionWorkflows, subscribeScmWebhook) are
 * retried like reads. The fake server counts the requests that reached it.
 */
import { expect } from "chai";
import {
  CodeSecApiError,
  CodeSecNetworkError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  OPERATIONS,
  type CodeSecClient,
} from "../../client";
import {
  FakeServer,
  SAMPLES,
  assertNoSecret,
  refusedBaseUrl,
  rejection,
  type FakeResponse,
} from "../support/fakeServer";

const CODE = "one-time-code-4b1d9e";
const COMPLETE_ARGS = { requestId: "req-1", code: CODE };
const APP_OK: FakeResponse = { status: 200, json: { app: SAMPLES.app } };

/** Failures after the request may have reached the platform, with the failure kind they must report. */
const AFTER_ARRIVAL: { name: string; response: FakeResponse; failure: string; status?: number }[] = [
  { name: "a connection reset after the request arrived", response: { destroy: true }, failure: "network" },
  { name: "a timeout", response: { delayMs: 5000, ...APP_OK }, failure: "timeout" },
  { name: "a body that stalls", response: { ...APP_OK, stallAfter: 5 }, failure: "timeout" },
  { name: "a cut-off body", response: { ...APP_OK, cutOffAfter: 5 }, failure: "truncated", status: 200 },
  ...[500, 502, 503, 504].map((status) => ({
    name: `HTTP ${status}`,
    response: { status, json: { error: { code: "UNAVAILABLE", message: "try later" } } },
    failure: "status",
    status,
  })),
];

describe("CodeSecClient retry classes", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await FakeServer.start();
  });
  afterEach(async () => server.close());

  it("the catalogue: completeScmAppRequest is `once`; updateUserRole, provisionWorkflows and subscribeScmWebhook idempotent writes; the rest reads", () => {
    const byClass = (retryClass: string) =>
      Object.entries(OPERATIONS)
        .filter(([, spec]) => spec.retryClass === retryClass)
        .map(([operation]) => operation);
    expect(byClass("once")).to.deep.equal(["completeScmAppRequest"]);
    expect(byClass("idempotentWrite")).to.deep.equal([
      "updateUserRole",
      "provisionWorkflows",
      "subscribeScmWebhook",
    ]);
    expect(byClass("read")).to.deep.equal([
      "getScmApp",
      "getScan",
      "getBranch",
      "getCurrentUser",
      "listJoinableOrganizations",
      "listNotificationRules",
    ]);
  });

  describe("completeScmAppRequest (a one-time code)", () => {
    const client = (): CodeSecClient => server.client({ timeoutMs: 300, retries: 3 });

    for (const failure of AFTER_ARRIVAL) {
      it(`is sent exactly once after ${failure.name}: the outcome is unknown`, async () => {
        server.sequence(failure.response, APP_OK);
        const error = await rejection(
          client().completeScmAppRequest(COMPLETE_ARGS),
          CodeSecOutcomeUnknownError,
        );
        expect(server.requests).to.have.length(1);
        expect(error).to.include({
          operation: "completeScmAppRequest",
          attempts: 1,
          retried: false,
          failure: failure.failure,
        });
        expect(error.status).to.equal(failure.status);
        expect(error.message)
          .to.include("the outcome is unknown")
          .and.include("a second request with the same one-time code would be refused")
          .and.include("getScmApp (GET /api/scm/deployments/{deploymentId}/scm_apps/{requestId})")
          .and.include("if it returns the app, the request was completed");
        assertNoSecret(error);
        assertNoSecret(error, CODE);
      });
    }

    it("cut short by the call's deadline, names deadlineMs (not timeoutMs) as the limit", async () => {
      server.sequence({ delayMs: 5000, ...APP_OK });
      const error = await rejection(
        server.client({ timeoutMs: 2000, deadlineMs: 300 }).completeScmAppRequest(COMPLETE_ARGS),
        CodeSecOutcomeUnknownError,
      );
      expect(error).to.include({ failure: "timeout", deadlineReached: true });
      expect(error.message).to.match(/within \d+ ms, the time left before the call's deadline/);
      expect(error.message).to.include("(deadlineMs 300 ms, stack config codesec:deadlineMs)");
      expect(error.message).not.to.include("(timeoutMs)");
    });

    it("is retried after an explicit 429 refusal, then succeeds", async () => {
      server.sequence({ status: 429, headers: { "retry-after": "0" } }, APP_OK);
      const app = await client().completeScmAppRequest(COMPLETE_ARGS);
      expect(app.slug).to.equal(SAMPLES.app.slug);
      expect(server.requests).to.have.length(2);
    });

    it("ends a persistent 429 with a CodeSecRateLimitError: the code was not spent", async () => {
      server.always({ status: 429 });
      const error = await rejection(
        server.client({ retries: 2 }).completeScmAppRequest(COMPLETE_ARGS),
        CodeSecRateLimitError,
      );
      expect(error).to.include({ attempts: 3, status: 429 });
      expect(server.requests).to.have.length(3);
    });

    it("is retried when the connection is refused: the request provably never arrived", async () => {
      const error = await rejection(
        server.client({ baseUrl: await refusedBaseUrl(), retries: 2 }).completeScmAppRequest(COMPLETE_ARGS),
        CodeSecNetworkError,
      );
      expect(error).to.include({ code: "ECONNREFUSED", requestMayHaveArrived: false, attempts: 3 });
      expect(error.message).to.include("never reached the platform");
      assertNoSecret(error, CODE);
    });

    it("starts every attempt on a fresh connection, never a reused keep-alive one", async () => {
      server.sequence({ status: 200, json: { scan: SAMPLES.scan } }, { status: 429 }, APP_OK);
      const shared = server.client();
      await shared.getScan({ deploymentId: "42", scanId: "1001" });
      await shared.completeScmAppRequest(COMPLETE_ARGS);
      const ports = server.requests.map((request) => request.remotePort);
      expect(new Set(ports).size).to.equal(3);
    });

    for (const status of [400, 404, 409]) {
      it(`reports ${status} as the platform's answer (a known outcome), without a repeat`, async () => {
        server.always({ status, json: { error: { code: "X", message: "no" } } });
        const error = await rejection(client().completeScmAppRequest(COMPLETE_ARGS), CodeSecApiError);
        expect(error).not.to.be.instanceOf(CodeSecOutcomeUnknownError);
        expect(error).to.include({ status, attempts: 1 });
        expect(server.requests).to.have.length(1);
      });
    }
  });

  describe("idempotent writes are retried like reads", () => {
    const writes: { name: string; call: (client: CodeSecClient) => Promise<unknown>; ok: FakeResponse }[] = [
      {
        name: "`updateUserRole`",
        call: (client) =>
          client.updateUserRole({ deploymentId: "42", userId: "u-2", newRole: "ORG_ROLE_MEMBER" }),
        ok: { status: 200, json: {} },
      },
      {
        name: "`provisionWorkflows`",
        call: (client) => client.provisionWorkflows({ deploymentId: "42", filters: { ids: ["101"] } }),
        ok: { status: 200, json: SAMPLES.provision },
      },
      {
        name: "`subscribeScmWebhook`",
        call: (client) => client.subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" }),
        ok: { status: 200, json: SAMPLES.subscription },
      },
    ];
    const failures: { name: string; response: (ok: FakeResponse) => FakeResponse }[] = [
      { name: "a lost answer (reset after receipt)", response: () => ({ destroy: true }) },
      { name: "a timeout", response: (ok) => ({ ...ok, delayMs: 5000 }) },
      {
        name: "a cut-off body",
        response: (ok) => ({ ...ok, text: JSON.stringify(ok.json), cutOffAfter: 1 }),
      },
      { name: "HTTP 503", response: () => ({ status: 503 }) },
    ];
    for (const write of writes) {
      for (const failure of failures) {
        it(`${write.name} after ${failure.name}`, async () => {
          server.sequence(failure.response(write.ok), write.ok);
          await write.call(server.client({ timeoutMs: 300 }));
          expect(server.requests).to.have.length(2);
          expect(server.requests[1].body).to.equal(server.requests[0].body);
        });
      }
    }
  });
});
