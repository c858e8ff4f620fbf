/** Error classes, hints, tolerant error-body parsing, and that the token never leaks. */
import { expect } from "chai";
import * as util from "util";
import {
  CodeSecApiError,
  CodeSecClient,
  CodeSecError,
  CodeSecInputError,
  CodeSecNetworkError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  CodeSecResponseError,
  CodeSecTimeoutError,
  REQUEST_BODY_LIMIT_BYTES,
  normalizeBaseUrl,
} from "../../client";
import { parseErrorBody } from "../../client/errorBody";
import { redact, sanitize } from "../../client/redaction";
import { FakeServer, SAMPLES, TOKEN, assertNoSecret, refusedBaseUrl, rejection } from "../support/fakeServer";

const SCAN_ARGS = { deploymentId: "42", scanId: "1001" };

describe("CodeSecClient errors", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await FakeServer.start();
  });
  afterEach(async () => server.close());

  describe("hints say what to do", () => {
    it("401 points at the token settings", async () => {
      server.always({ status: 401, json: { error: { code: "UNAUTHENTICATED", message: "bad token" } } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.message)
        .to.include("Check the token")
        .and.include("token option")
        .and.include("codesec:connections.<name>.token")
        .and.include("codesec:token")
        .and.include("CODESEC_TOKEN");
      expect(error.message).to.include(
        "Set a valid API token or user JWT where this connection's token is set (",
      );
      expect(error.message)
        .to.include("CodeSec getScan (GET /api/v2/deployments/42/scans/1001) failed")
        .and.include("HTTP 401");
    });

    it("403 on an operation with a deploymentId names the deployment first, then the role, then the token", async () => {
      const said = "this credential belongs to deployment 1002 and cannot access deployment 1001";
      server.always({ status: 403, json: { error: { code: "PERMISSION_DENIED", message: said } } });
      const error = await rejection(
        server.client().updateUserRole({ deploymentId: "1001", userId: "u-2", newRole: "ORG_ROLE_ADMIN" }),
        CodeSecApiError,
      );
      expect(error).to.include({
        operation: "updateUserRole",
        code: "PERMISSION_DENIED",
        platformMessage: said,
      });
      const message = error.message;
      const order = [
        "own organization's deployment",
        "check deploymentId",
        "user's role",
        "Web API permission",
      ].map((part) => message.indexOf(part));
      expect(order, message).to.satisfy((at: number[]) =>
        at.every((i, n) => i > -1 && (n === 0 || i > at[n - 1])),
      );
      expect(message).to.include("scope restriction").and.include(said);
    });

    it("403 on an operation without a deploymentId names the role, then the token", async () => {
      server.always({ status: 403, json: { error: { code: "PERMISSION_DENIED", message: "denied" } } });
      const error = await rejection(server.client().getCurrentUser(), CodeSecApiError);
      expect(error.message)
        .to.include("role")
        .and.include("Web API permission")
        .and.include("scope restriction");
      expect(error.message).not.to.include("deploymentId");
    });

    it("403 on `listJoinableOrganizations` says it needs a user JWT and the caller's own userId", async () => {
      server.always({ status: 403, json: { error: { code: "PERMISSION_DENIED", message: "jwt required" } } });
      const error = await rejection(
        server.client().listJoinableOrganizations({ userId: "u-1" }),
        CodeSecApiError,
      );
      expect(error.message)
        .to.include("only a user JWT, not an API token")
        .and.include("userId must be the caller");
      expect(error.operation).to.equal("listJoinableOrganizations");
    });

    it("404 asks to check the ids and visibility", async () => {
      server.always({ status: 404, json: { error: { code: "NOT_FOUND", message: "no such scan" } } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.message).to.include("Check the ids (deploymentId, scanId)").and.include("can see");
      expect(error.message).to.include("/api/v2/deployments/42/scans/1001");
      expect(error.message).not.to.include("base URL has the path");
    });

    it("404 with a base URL that has a path says the path is put in front of /api/", async () => {
      server.always({ status: 404, text: "Cannot GET" });
      const client = server.client({ baseUrl: `${server.baseUrl}/codesec` });
      const error = await rejection(client.getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.message)
        .to.include("The base URL has the path /codesec")
        .and.include("already starts with /api/")
        .and.include("CODESEC_BASE_URL");
    });

    const conflicts: [string, (client: CodeSecClient) => Promise<unknown>, string[]][] = [
      [
        "`updateUserRole` says what blocks the change (the last admin)",
        (client) => client.updateUserRole({ deploymentId: "42", userId: "u-1", newRole: "ORG_ROLE_MEMBER" }),
        [
          "refused the change in the deployment's current state",
          "last ORG_ROLE_ADMIN",
          "make another user admin first",
        ],
      ],
      [
        "`completeScmAppRequest` says the one-time code is spent and how to read the app",
        (client) => client.completeScmAppRequest({ requestId: "req-1", code: "c0de" }),
        [
          "already completed",
          "one-time code cannot be used again",
          "read the app with getScmApp (GET /api/scm/deployments/{deploymentId}/scm_apps/{requestId}).",
        ],
      ],
      [
        "`subscribeScmWebhook` points at the platform's message",
        (client) => client.subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" }),
        ["message says which state to change first"],
      ],
    ];
    for (const [name, call, parts] of conflicts) {
      it(`409 on ${name}`, async () => {
        server.always({ status: 409, json: { error: { code: "FAILED_PRECONDITION", message: "state" } } });
        const error = await rejection(call(server.client()), CodeSecApiError);
        for (const part of parts) expect(error.message).to.include(part);
        expect(error.message).not.to.include("read it again, then retry");
      });
    }

    it("410 DEPLOYMENT_MIGRATED explains the unified policies model", async () => {
      server.always({ status: 410, json: { error: { code: "DEPLOYMENT_MIGRATED", message: "migrated" } } });
      const error = await rejection(
        server.client().listNotificationRules({ deploymentId: "42" }),
        CodeSecApiError,
      );
      expect(error.message).to.include("unified policies model");
      expect(error).to.include({ status: 410, code: "DEPLOYMENT_MIGRATED" });
    });

    it("500 on a read says it is safe to run again, without retrying", async () => {
      server.always({ status: 500, text: "internal error" });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.message).to.include("safe to run again");
      expect(error.platformMessage).to.equal("internal error");
      expect(server.requests).to.have.length(1);
    });

    it("503 on an idempotent write after retries says it is safe to run again", async () => {
      server.always({ status: 503 });
      const error = await rejection(
        server.client({ retries: 1 }).subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" }),
        CodeSecApiError,
      );
      expect(error).to.include({ attempts: 2 });
      expect(error.message).to.include("safe to run again");
    });

    it("hints carry no Pulumi advice beyond stack config keys", async () => {
      const messages: string[] = [];
      for (const status of [301, 400, 401, 403, 404, 409, 410, 429, 500, 503]) {
        server.always({ status, headers: { location: "https://elsewhere.example.com/" } });
        messages.push(
          (await rejection(server.client({ retries: 0 }).getScan(SCAN_ARGS), CodeSecApiError)).message,
        );
      }
      for (const message of messages) expect(message).not.to.match(/pulumi|--secret|--parallel/i);
    });

    it("a redirect is reported, not followed (the credential is not replayed elsewhere)", async () => {
      server.always({ status: 301, headers: { location: "https://elsewhere.example.com/api" } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.status).to.equal(301);
      expect(error.message).to.include("https://elsewhere.example.com/api").and.include("CODESEC_BASE_URL");
      expect(server.requests).to.have.length(1);
    });
  });

  describe("error fields", () => {
    it("carries status, code, platform message and the x-request-id header", async () => {
      server.always({
        status: 404,
        json: { error: { code: "NOT_FOUND", message: "scan not found", requestId: "body-id" } },
        headers: { "x-request-id": "header-id" },
      });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error).to.be.instanceOf(CodeSecError).and.instanceOf(Error);
      expect(error).to.include({
        name: "CodeSecApiError",
        operation: "getScan",
        status: 404,
        code: "NOT_FOUND",
        platformMessage: "scan not found",
        requestId: "header-id",
        retried: false,
        attempts: 1,
      });
      expect(error.message).to.include("header-id");
    });

    it("falls back to the body's request id", async () => {
      server.always({
        status: 404,
        json: { error: { code: "NOT_FOUND", message: "x", requestId: "body-id" } },
      });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.requestId).to.equal("body-id");
    });

    it("serializes to JSON with name and message", async () => {
      server.always({ status: 404, json: { error: { code: "NOT_FOUND", message: "x" } } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
      expect(json).to.include({
        name: "CodeSecApiError",
        status: 404,
        code: "NOT_FOUND",
        operation: "getScan",
      });
      expect(json.message).to.equal(error.message);
    });
  });

  describe("tolerant error-body parsing", () => {
    const cases: {
      name: string;
      response: { text?: string; json?: unknown };
      code?: string;
      message?: string;
    }[] = [
      {
        name: "{error:{code,message,requestId}} (the emulator's shape)",
        response: { json: { error: { code: "NOT_FOUND", message: "gone", requestId: "r" } } },
        code: "NOT_FOUND",
        message: "gone",
      },
      {
        name: "{code: int, message}",
        response: { json: { code: 5, message: "not found" } },
        code: "5",
        message: "not found",
      },
      {
        name: "{code: string, message}",
        response: { json: { code: "NOT_FOUND", message: "nope" } },
        code: "NOT_FOUND",
        message: "nope",
      },
      { name: "{message}", response: { json: { message: "only a message" } }, message: "only a message" },
      { name: '{error:"text"}', response: { json: { error: "plain error" } }, message: "plain error" },
      { name: "plain text", response: { text: "upstream connect error" }, message: "upstream connect error" },
      {
        name: "an HTML page",
        response: {
          text: "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
        },
        message: "404 Not Found Not Found",
      },
    ];
    for (const c of cases) {
      it(`reads ${c.name}`, async () => {
        server.always({ status: 404, ...c.response });
        const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
        expect(error.code).to.equal(c.code);
        expect(error.platformMessage).to.equal(c.message);
      });
    }

    it("truncates a long plain-text body", async () => {
      server.always({ status: 400, text: "x".repeat(5000) });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.platformMessage!.length).to.be.below(400);
      expect(error.platformMessage).to.include("more characters");
      expect(error.message.length).to.be.below(1000);
    });

    it("handles an empty error body", async () => {
      server.always({ status: 404, text: "" });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.platformMessage).to.equal(undefined);
      expect(error.code).to.equal(undefined);
      expect(error.message).to.include("HTTP 404");
    });

    it("parseErrorBody never throws on odd JSON", () => {
      expect(parseErrorBody("[1,2]")).to.deep.equal({ message: "[1,2]" });
      expect(parseErrorBody('"just a string"')).to.deep.equal({ message: "just a string" });
      expect(parseErrorBody("null")).to.deep.equal({ message: "null" });
      expect(parseErrorBody('{"error":{"code":7}}')).to.deep.equal({ code: "7" });
      expect(parseErrorBody('{"detail":"d","request_id":"q"}')).to.deep.equal({
        message: "d",
        requestId: "q",
      });
    });

    it("strips control characters from what the server says", async () => {
      server.always({ status: 400, json: { message: "line1\n\u001b[31mred\u0007" } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      // eslint-disable-next-line no-control-regex
      expect(error.message).not.to.match(/[\u0000-\u001f]/);
    });
  });

  describe("the token never leaks", () => {
    it("is absent from util.inspect and JSON of the client", () => {
      const client = server.client();
      assertNoSecret(client);
      expect(util.inspect(client)).to.include(server.baseUrl);
      expect(Object.keys(client)).to.deep.equal(["baseUrl"]);
    });

    it("is redacted from an API error whose body and headers echo it", async () => {
      server.respond((req) => ({
        status: 401,
        json: {
          error: {
            code: `BAD_${TOKEN}`,
            message: `token ${TOKEN} rejected; header was ${String(req.headers.authorization)}`,
            requestId: TOKEN,
          },
        },
        headers: { "x-request-id": `id-${TOKEN}` },
      }));
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      assertNoSecret(error);
      expect(error.platformMessage).to.include("[REDACTED]");
    });

    it("is redacted from a plain-text error body that echoes it", async () => {
      server.always({ status: 400, text: `Authorization: Bearer ${TOKEN}` });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      assertNoSecret(error);
    });

    it("is redacted even where truncation would cut it", async () => {
      server.always({ status: 400, text: `${"y".repeat(290)}${TOKEN}${"z".repeat(100)}` });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      assertNoSecret(error, TOKEN.slice(0, 10));
    });

    it("is redacted from a response-validation error and a non-JSON 200 body", async () => {
      server.sequence(
        { status: 200, json: { scan: { ...SAMPLES.scan, id: `leak ${TOKEN}` } } },
        { status: 200, text: `<p>${TOKEN}</p>` },
      );
      const client = server.client();
      const invalid = await rejection(client.getScan(SCAN_ARGS), CodeSecResponseError);
      expect(invalid.fieldPath).to.equal("scan.id");
      assertNoSecret(invalid);
      const notJson = await rejection(client.getScan(SCAN_ARGS), CodeSecResponseError);
      assertNoSecret(notJson);
    });

    it("is absent from timeout, network and input errors", async () => {
      server.always({ delayMs: 1000, json: {} });
      const timeout = await rejection(
        server.client({ timeoutMs: 50, retries: 0 }).getCurrentUser(),
        CodeSecTimeoutError,
      );
      assertNoSecret(timeout);
      const network = await rejection(
        new CodeSecClient({ baseUrl: await refusedBaseUrl(), token: TOKEN, retries: 0 }).getCurrentUser(),
        CodeSecNetworkError,
      );
      assertNoSecret(network);
      const input = await rejection(
        server.client().getScan({ deploymentId: "abc", scanId: "1" }),
        CodeSecInputError,
      );
      expect(input.field).to.equal("deploymentId");
      assertNoSecret(input);
    });

    it("is never echoed by a bad token option", () => {
      for (const token of [` ${TOKEN} with space`, `${TOKEN}\n${TOKEN}`]) {
        let caught: unknown;
        try {
          new CodeSecClient({ baseUrl: server.baseUrl, token });
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(CodeSecInputError).with.property("field", "token");
        assertNoSecret(caught);
      }
    });

    it("redacts the one-time SCM app code echoed by the server", async () => {
      const code = "one-time-code-7f3a9b";
      server.always({
        status: 400,
        json: { error: { code: "INVALID_ARGUMENT", message: `code ${code} expired` } },
      });
      const error = await rejection(
        server.client().completeScmAppRequest({ requestId: "req-1", code }),
        CodeSecApiError,
      );
      assertNoSecret(error, code);
      assertNoSecret(error);
    });

    it("does not echo the SCM app code in input errors", async () => {
      const error = await rejection(
        server.client().completeScmAppRequest({ requestId: "req-1", code: 12345 as unknown as string }),
        CodeSecInputError,
      );
      expect(error.field).to.equal("code");
      expect(error.message).not.to.include("12345");
    });
  });

  describe("redaction helpers", () => {
    it("redacts every occurrence and any bearer credential", () => {
      expect(redact(`a ${TOKEN} b ${TOKEN}`, [TOKEN])).to.equal("a [REDACTED] b [REDACTED]");
      expect(redact("Authorization: Bearer eyJhbGciOi.abc.def", [])).to.equal(
        "Authorization: Bearer [REDACTED]",
      );
      expect(sanitize(`${TOKEN}\n\tnext`, [TOKEN])).to.equal("[REDACTED] next");
    });
  });

  describe("client options", () => {
    const bad: [string, Record<string, unknown>][] = [
      ["baseUrl", { baseUrl: "not a url" }],
      ["baseUrl", { baseUrl: "ftp://host" }],
      ["baseUrl", { baseUrl: "https://user:pw@host" }],
      ["baseUrl", { baseUrl: "https://host/?q=1" }],
      ["baseUrl", { baseUrl: undefined }],
      ["token", { token: "" }],
      ["token", { token: undefined }],
      ["token", { token: 42 }],
      ["timeoutMs", { timeoutMs: 0 }],
      ["timeoutMs", { timeoutMs: Number.NaN }],
      ["retries", { retries: -1 }],
      ["retries", { retries: 1.5 }],
      ["retries", { retries: 11 }],
      ["deadlineMs", { deadlineMs: 0 }],
      ["deadlineMs", { deadlineMs: "30000" }],
      ["maxRetryDelayMs", { maxRetryDelayMs: -5 }],
      ["userAgent", { userAgent: "a\nb" }],
      ["userAgent", { userAgent: "agent/1 ☃" }],
      ["token", { token: "tok_ünicode" }],
      ["token", { token: "tok abc" }],
      ["token", { token: "tok\tabc\n" }],
      ["fetch", { fetch: "nope" }],
      ["timeout", { timeout: 5000 }],
      ["baseUrl", { baseUrl: "https://host/api" }],
      ["baseUrl", { baseUrl: "http://codesec.example.com" }],
      ["baseUrl", { baseUrl: "http://10.0.0.7:8080" }],
      ["baseUrl", { baseUrl: "http://127.0.0.1.example.com" }],
      ["baseUrl", { baseUrl: "http://localhost.example.com" }],
      ["baseUrl", { baseUrl: "http://codesec.example.com", allowInsecureHttp: false }],
      ["allowInsecureHttp", { allowInsecureHttp: "true" }],
    ];
    for (const [field, override] of bad) {
      it(`rejects a bad ${field}: ${util.inspect(Object.values(override)[0])}`, () => {
        const options = { baseUrl: "https://codesec.example.com", token: TOKEN, ...override };
        expect(() => new CodeSecClient(options))
          .to.throw(CodeSecInputError)
          .with.property("field", field);
      });
    }

    it("refuses plain http to another machine, naming https, this machine's hosts and the opt-in", () => {
      let caught: unknown;
      try {
        new CodeSecClient({ baseUrl: "HTTP://CodeSec.Example.com:8080/prefix/", token: TOKEN });
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(CodeSecInputError).with.property("field", "baseUrl");
      expect((caught as Error).message).to.equal(
        'baseUrl "http://codesec.example.com:8080" is plain http to another machine: the token would ' +
          'cross the network unencrypted. Use https ("https://codesec.example.com:8080"); plain http ' +
          "is accepted only to this machine (localhost, 127.0.0.0/8, [::1]), or, for a platform reached over " +
          "a network you trust (an emulator in another container), with allowInsecureHttp set to true " +
          "(client option allowInsecureHttp, stack config codesec:allowInsecureHttp)",
      );
    });

    it("quotes only the scheme, host and port of a plain http base URL, not its path, which may hold a secret", () => {
      expect(
        () => new CodeSecClient({ baseUrl: "http://codesec.example.com/t0k-hunter2-secret", token: TOKEN }),
      )
        .to.throw(CodeSecInputError)
        .with.property("message")
        .that.includes('baseUrl "http://codesec.example.com" is plain http')
        .and.not.includes("hunter2");
    });

    it("names where allowInsecureHttp is set in the caller's words", () => {
      expect(
        () =>
          new CodeSecClient({
            baseUrl: "http://codesec.example.com",
            token: TOKEN,
            settingNames: { allowInsecureHttp: 'the allowInsecureHttp input of provider "org2"' },
          }),
      ).to.throw(
        CodeSecInputError,
        'with allowInsecureHttp set to true (the allowInsecureHttp input of provider "org2")',
      );
    });

    it("accepts plain http to this machine: localhost, 127.0.0.0/8 and [::1]", () => {
      for (const [baseUrl, normalized] of [
        ["http://localhost:4010/", "http://localhost:4010"],
        ["http://LOCALHOST", "http://localhost"],
        ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
        ["http://127.255.3.4", "http://127.255.3.4"],
        ["http://[::1]:4010", "http://[::1]:4010"],
        ["http://[0:0:0:0:0:0:0:1]", "http://[::1]"],
      ]) {
        expect(new CodeSecClient({ baseUrl, token: TOKEN }).baseUrl, baseUrl).to.equal(normalized);
        expect(normalizeBaseUrl(baseUrl), baseUrl).to.equal(normalized);
      }
    });

    it("accepts plain http to another machine with allowInsecureHttp: true", () => {
      expect(
        new CodeSecClient({ baseUrl: "http://codesec.example.com", token: TOKEN, allowInsecureHttp: true })
          .baseUrl,
      ).to.equal("http://codesec.example.com");
      expect(normalizeBaseUrl("http://codesec.example.com", { allowInsecureHttp: true })).to.equal(
        "http://codesec.example.com",
      );
    });

    it("does not echo the query of a bad baseUrl, which may carry a credential", () => {
      expect(() => new CodeSecClient({ baseUrl: "https://host/api?token=hunter2", token: TOKEN }))
        .to.throw(CodeSecInputError)
        .with.property("message")
        .that.includes("https://host/api")
        .and.not.includes("hunter2");
    });

    it("does not echo credentials in a bad baseUrl", () => {
      expect(() => new CodeSecClient({ baseUrl: "https://me:hunter2@host", token: TOKEN }))
        .to.throw(CodeSecInputError)
        .with.property("message")
        .that.does.not.include("hunter2");
    });

    it("normalizes the base URL and keeps a path prefix", async () => {
      expect(new CodeSecClient({ baseUrl: "https://codesec.example.com/", token: TOKEN }).baseUrl).to.equal(
        "https://codesec.example.com",
      );
      server.always({ status: 200, json: { user: SAMPLES.user } });
      const client = new CodeSecClient({ baseUrl: `${server.baseUrl}/prefix//`, token: ` ${TOKEN}\n` });
      expect(client.baseUrl).to.equal(`${server.baseUrl}/prefix`);
      await client.getCurrentUser();
      expect(server.requests[0].path).to.equal("/prefix/api/auth/users/current");
      expect(server.requests[0].headers.authorization).to.equal(`Bearer ${TOKEN}`);
    });

    it("rejects an unknown option by name, listing the allowed ones", () => {
      for (const name of ["timeout", "fetch", "retryCount"]) {
        let caught: unknown;
        try {
          new CodeSecClient({ baseUrl: server.baseUrl, token: TOKEN, [name]: 1 });
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(CodeSecInputError).with.property("field", name);
        expect((caught as Error).message)
          .to.include(`"${name}"`)
          .and.include("baseUrl, token, timeoutMs, deadlineMs, retries, maxRetryDelayMs, userAgent");
      }
    });

    it("rejects a base URL ending in /api: the operation paths already start with /api/", () => {
      for (const baseUrl of [
        "https://codesec.example.com/api",
        "https://codesec.example.com/api/",
        "https://h/x/API",
      ]) {
        expect(() => new CodeSecClient({ baseUrl, token: TOKEN }), baseUrl)
          .to.throw(CodeSecInputError, "drop the trailing /api: the operation paths already start with /api/")
          .with.property("field", "baseUrl");
      }
      expect(new CodeSecClient({ baseUrl: "https://h/apis", token: TOKEN }).baseUrl).to.equal(
        "https://h/apis",
      );
      expect(new CodeSecClient({ baseUrl: "https://h/api/v3", token: TOKEN }).baseUrl).to.equal(
        "https://h/api/v3",
      );
    });

    it("exports the base URL rule as normalizeBaseUrl, for checks made before any client exists", () => {
      expect(normalizeBaseUrl(" https://codesec.example.com/prefix/ ")).to.equal(
        "https://codesec.example.com/prefix",
      );
      expect(() => normalizeBaseUrl("https://codesec.example.com/api"))
        .to.throw(CodeSecInputError)
        .with.property("field", "baseUrl");
      expect(() => normalizeBaseUrl(42)).to.throw(CodeSecInputError, "got 42 (an integer)");
      expect(() => normalizeBaseUrl("http://codesec.example.com"))
        .to.throw(CodeSecInputError, "is plain http to another machine")
        .with.property("field", "baseUrl");
    });
  });

  describe("request bodies", () => {
    it("refuses a body above the platform's limit before any request, naming the size and the limit", async () => {
      const search = "s".repeat(REQUEST_BODY_LIMIT_BYTES);
      const error = await rejection(
        server.client().provisionWorkflows({ deploymentId: "42", filters: { search } }),
        CodeSecInputError,
      );
      expect(error).to.include({ field: "body", operation: "provisionWorkflows" });
      const size = Buffer.byteLength(JSON.stringify({ deploymentId: "42", filters: { search } }));
      expect(error.message).to.equal(
        `CodeSec provisionWorkflows (POST /api/agent/deployments/{deploymentId}/repos/_provision): the request ` +
          `body would be ${size} bytes, above the platform's limit of ${REQUEST_BODY_LIMIT_BYTES} bytes, so it is ` +
          "not sent. Send fewer or shorter values (for example, split a long id list across several calls).",
      );
      expect(server.requests).to.have.length(0);
    });

    it("sends a body at the limit", async () => {
      server.always({ status: 200, json: SAMPLES.provision });
      const overhead = Buffer.byteLength(JSON.stringify({ deploymentId: "42", filters: { search: "" } }));
      const search = "s".repeat(REQUEST_BODY_LIMIT_BYTES - overhead);
      await server.client().provisionWorkflows({ deploymentId: "42", filters: { search } });
      expect(server.requests).to.have.length(1);
      expect(server.requests[0].headers["content-length"]).to.equal(String(REQUEST_BODY_LIMIT_BYTES));
    });
  });

  describe("error classes", () => {
    it("a rate limit is an API error; an unknown outcome and the rest are CodeSecErrors", async () => {
      server.sequence({ status: 429 }, { status: 503 });
      const limited = await rejection(
        server.client({ retries: 0 }).getScan(SCAN_ARGS),
        CodeSecRateLimitError,
      );
      expect(limited).to.be.instanceOf(CodeSecApiError).and.instanceOf(CodeSecError);
      expect(limited.name).to.equal("CodeSecRateLimitError");
      const unknown = await rejection(
        server.client().completeScmAppRequest({ requestId: "req-1", code: "c0de" }),
        CodeSecOutcomeUnknownError,
      );
      expect(unknown).to.be.instanceOf(CodeSecError).and.not.instanceOf(CodeSecApiError);
      expect(JSON.parse(JSON.stringify(unknown))).to.include({
        name: "CodeSecOutcomeUnknownError",
        operation: "completeScmAppRequest",
        failure: "status",
        status: 503,
        attempts: 1,
      });
    });

    it("keeps the deprecated spec number readable, but out of logs (toJSON, util.inspect, Object.keys)", async () => {
      server.always({ status: 404, json: { error: { code: "NOT_FOUND", message: "no such scan" } } });
      const error = await rejection(server.client().getScan(SCAN_ARGS), CodeSecApiError);
      expect(error.operationNumber).to.equal(6);
      expect(Object.keys(error)).not.to.include("operationNumber");
      expect(JSON.stringify(error)).not.to.include("operationNumber");
      expect(util.inspect(error)).not.to.include("operationNumber");
      expect(error.toJSON()).to.include({ operation: "getScan", status: 404 });
      const input = new CodeSecInputError("baseUrl", "bad base URL");
      expect(input.operationNumber).to.equal(undefined);
      expect(Object.keys(input)).not.to.include("operationNumber");
    });
  });
});
