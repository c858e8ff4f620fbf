/** Each operation's request (method, path, headers, body) and response handling, against a local fake. */
import { expect } from "chai";
import { CodeSecResponseError, DEFAULT_USER_AGENT, type CodeSecClient } from "../../client";
import { FakeServer, SAMPLES, TOKEN, rejection } from "../support/fakeServer";

describe("CodeSecClient operations", () => {
  let server: FakeServer;
  let client: CodeSecClient;
  beforeEach(async () => {
    server = await FakeServer.start();
    client = server.client();
  });
  afterEach(async () => server.close());

  function only() {
    expect(server.requests).to.have.length(1);
    return server.requests[0];
  }

  it("sends the bearer token, Accept and User-Agent headers", async () => {
    server.always({ status: 200, json: { user: SAMPLES.user } });
    await client.getCurrentUser();
    const req = only();
    expect(req.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(req.headers.accept).to.equal("application/json");
    expect(req.headers["user-agent"]).to.equal(DEFAULT_USER_AGENT);
    await server.client({ userAgent: "pulumi-codesec/1.0" }).getCurrentUser();
    expect(server.requests[1].headers["user-agent"]).to.equal("pulumi-codesec/1.0");
  });

  describe("updateUserRole", () => {
    it("PATCHes the roles path with body ids filled from the path arguments", async () => {
      server.always({ status: 200, json: {} });
      const result = await client.updateUserRole({
        deploymentId: "42",
        userId: "u 2",
        newRole: "ORG_ROLE_READONLY",
      });
      expect(result).to.equal(undefined);
      const req = only();
      expect(req.method).to.equal("PATCH");
      expect(req.url).to.equal("/api/agent/deployments/42/users/u%202/roles");
      expect(req.headers["content-type"]).to.equal("application/json");
      expect(req.json).to.deep.equal({ deploymentId: "42", userId: "u 2", newRole: "ORG_ROLE_READONLY" });
    });

    it("accepts an empty 200 body", async () => {
      server.always({ status: 200, text: "" });
      await client.updateUserRole({ deploymentId: "42", userId: "u-2", newRole: "ORG_ROLE_ADMIN" });
    });

    it("rejects a non-object 200 body", async () => {
      server.always({ status: 200, json: [1] });
      const error = await rejection(
        client.updateUserRole({ deploymentId: "42", userId: "u-2", newRole: "ORG_ROLE_ADMIN" }),
        CodeSecResponseError,
      );
      expect(error.fieldPath).to.equal("");
      expect(error.expected).to.equal("an object");
      expect(
        error.message.startsWith(
          "CodeSec updateUserRole (PATCH /api/agent/deployments/42/users/u-2/roles): the platform answered HTTP 200 " +
            "with an unexpected body: ",
        ),
      ).to.equal(true, error.message);
    });
  });

  describe("provisionWorkflows", () => {
    it("POSTs filters, excludeIds and ghaOptions and returns the result with partial errors", async () => {
      server.always({ status: 200, json: { ...SAMPLES.provision, extra: 1 } });
      const args = {
        deploymentId: "42",
        filters: { ids: ["101", "102"], tagId: 9, lastScanSince: "2026-01-01T00:00:00Z", codeAccess: true },
        excludeIds: ["103"],
        ghaOptions: { prEnabled: true, pushBranches: ["main"], cronEnabled: false },
      };
      const result = await client.provisionWorkflows(args);
      expect(result).to.deep.equal({ ...SAMPLES.provision, extra: 1 });
      const req = only();
      expect(req.method).to.equal("POST");
      expect(req.path).to.equal("/api/agent/deployments/42/repos/_provision");
      expect(req.json).to.deep.equal(args);
    });

    it("omits absent optional fields", async () => {
      server.always({ status: 200, json: SAMPLES.provision });
      await client.provisionWorkflows({ deploymentId: "42" });
      expect(only().json).to.deep.equal({ deploymentId: "42" });
    });

    it("names a malformed partial error", async () => {
      server.always({
        status: 200,
        json: { repoFileUrls: {}, errors: [{ code: "X", message: "m", ids: [1] }] },
      });
      const error = await rejection(client.provisionWorkflows({ deploymentId: "42" }), CodeSecResponseError);
      expect(error.fieldPath).to.equal("errors[0].ids[0]");
      expect(error.expected).to.equal("a string");
    });
  });

  describe("completeScmAppRequest", () => {
    it("PUTs requestId and code, returning response.app", async () => {
      server.always({ status: 200, json: { app: SAMPLES.app } });
      const app = await client.completeScmAppRequest({ requestId: "req-1", code: "secret-code" });
      expect(app).to.deep.equal(SAMPLES.app);
      const req = only();
      expect(req.method).to.equal("PUT");
      expect(req.path).to.equal("/api/scm/app_request_complete");
      expect(req.json).to.deep.equal({ requestId: "req-1", code: "secret-code" });
    });
  });

  describe("getScmApp", () => {
    it("GETs the app by request id and keeps unknown fields", async () => {
      server.always({ status: 200, json: { app: { ...SAMPLES.app, newField: { nested: true } } } });
      const app = await client.getScmApp({ deploymentId: "42", requestId: "req-1" });
      expect(app).to.deep.equal({ ...SAMPLES.app, newField: { nested: true } });
      const req = only();
      expect(req.method).to.equal("GET");
      expect(req.url).to.equal("/api/scm/deployments/42/scm_apps/req-1");
      expect(req.body).to.equal("");
    });

    it("names a wrong-typed field", async () => {
      server.always({ status: 200, json: { app: { ...SAMPLES.app, codeAccess: "yes" } } });
      const error = await rejection(
        client.getScmApp({ deploymentId: "42", requestId: "req-1" }),
        CodeSecResponseError,
      );
      expect(error).to.include({
        fieldPath: "app.codeAccess",
        expected: "a boolean",
        status: 200,
        operation: "getScmApp",
      });
      expect(error.message).to.include('app.codeAccess must be a boolean, but got "yes"');
    });
  });

  describe("subscribeScmWebhook", () => {
    it("PUTs with no body and returns the subscription", async () => {
      server.always({ status: 200, json: SAMPLES.subscription });
      const result = await client.subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" });
      expect(result).to.deep.equal(SAMPLES.subscription);
      const req = only();
      expect(req.method).to.equal("PUT");
      expect(req.url).to.equal("/api/scm/deployments/42/subscriptions/cfg-1");
      expect(req.body).to.equal("");
      expect(req.headers["content-type"]).to.equal(undefined);
    });
  });

  describe("getScan", () => {
    it("GETs the scan and returns response.scan with extra fields kept", async () => {
      server.always({ status: 200, json: { scan: { ...SAMPLES.scan, riskScore: 7 }, meta: "x" } });
      const scan = await client.getScan({ deploymentId: "42", scanId: "1001" });
      expect(scan).to.deep.equal({ ...SAMPLES.scan, riskScore: 7 });
      expect(only().url).to.equal("/api/v2/deployments/42/scans/1001");
    });

    it("accepts a running scan without completeTime, exitCode and duration", async () => {
      const { completeTime: _c, exitCode: _e, duration: _d, ...running } = SAMPLES.scan;
      server.always({ status: 200, json: { scan: running } });
      const scan = await client.getScan({ deploymentId: "42", scanId: "1001" });
      expect(scan.completeTime).to.equal(undefined);
    });

    const broken: [string, unknown, string, string][] = [
      [
        "a wrong-typed nested count",
        { findingsCounts: { ...SAMPLES.scan.findingsCounts, total: "12" } },
        "scan.findingsCounts.total",
        "an integer",
      ],
      [
        "a non-integer count",
        { findingsCounts: { ...SAMPLES.scan.findingsCounts, code: 1.5 } },
        "scan.findingsCounts.code",
        "an integer",
      ],
      ["a non-numeric id", { id: "abc" }, "scan.id", "a numeric id (digits only)"],
      [
        "a bad timestamp",
        { startTime: "yesterday" },
        "scan.startTime",
        "an RFC 3339 date-time with a real calendar date, such as 2026-01-02T03:04:05Z",
      ],
      ["a wrong array item", { enabledProducts: ["PRODUCT_SAST", 3] }, "scan.enabledProducts[1]", "a string"],
    ];
    for (const [name, patch, fieldPath, expected] of broken) {
      it(`names ${name}: ${fieldPath}`, async () => {
        server.always({ status: 200, json: { scan: { ...SAMPLES.scan, ...(patch as object) } } });
        const error = await rejection(
          client.getScan({ deploymentId: "42", scanId: "1001" }),
          CodeSecResponseError,
        );
        expect(error.fieldPath).to.equal(fieldPath);
        expect(error.expected).to.equal(expected);
        expect(error.message).to.include(fieldPath).and.include("getScan").and.include("beta");
      });
    }

    it("names a missing required field", async () => {
      const { isFullScan: _omit, ...rest } = SAMPLES.scan;
      server.always({ status: 200, json: { scan: rest }, headers: { "x-request-id": "rid-9" } });
      const error = await rejection(
        client.getScan({ deploymentId: "42", scanId: "1001" }),
        CodeSecResponseError,
      );
      expect(error).to.include({ fieldPath: "scan.isFullScan", expected: "a boolean", requestId: "rid-9" });
      expect(error.message).to.include("missing").and.include("rid-9");
    });

    it("names a missing wrapper object", async () => {
      server.always({ status: 200, json: SAMPLES.scan });
      const error = await rejection(
        client.getScan({ deploymentId: "42", scanId: "1001" }),
        CodeSecResponseError,
      );
      expect(error.fieldPath).to.equal("scan");
    });
  });

  describe("getBranch", () => {
    it("GETs the branch and returns response.branch", async () => {
      server.always({ status: 200, json: { branch: SAMPLES.branch } });
      const branch = await client.getBranch({ deploymentId: "42", projectId: "7", branchId: "3" });
      expect(branch).to.deep.equal(SAMPLES.branch);
      expect(only().url).to.equal("/api/v2/deployments/42/projects/7/branches/3");
    });

    it("names a string where the branch id must be an integer", async () => {
      server.always({ status: 200, json: { branch: { id: "3", name: "refs/heads/main" } } });
      const error = await rejection(
        client.getBranch({ deploymentId: "42", projectId: "7", branchId: "3" }),
        CodeSecResponseError,
      );
      expect(error).to.include({ fieldPath: "branch.id", expected: "an integer" });
    });
  });

  describe("getCurrentUser", () => {
    it("GETs the current user and returns response.user", async () => {
      server.always({ status: 200, json: { user: SAMPLES.user } });
      expect(await client.getCurrentUser()).to.deep.equal(SAMPLES.user);
      const req = only();
      expect(req.method).to.equal("GET");
      expect(req.url).to.equal("/api/auth/users/current");
    });

    it("names a bad auth detail by index", async () => {
      const user = { ...SAMPLES.user, authDetails: [{ ...SAMPLES.user.authDetails[0], current: 1 }] };
      server.always({ status: 200, json: { user } });
      const error = await rejection(client.getCurrentUser(), CodeSecResponseError);
      expect(error.fieldPath).to.equal("user.authDetails[0].current");
    });
  });

  describe("listJoinableOrganizations", () => {
    it("GETs with the userId query parameter", async () => {
      server.always({ status: 200, json: SAMPLES.orgs });
      const result = await client.listJoinableOrganizations({ userId: "u 1&x=y" });
      expect(result).to.deep.equal(SAMPLES.orgs);
      const req = only();
      expect(req.path).to.equal("/api/auth/users/current/deployments/joinable");
      expect(req.query.get("userId")).to.equal("u 1&x=y");
      expect([...req.query.keys()]).to.deep.equal(["userId"]);
    });

    it("omits the query when userId is not given", async () => {
      server.always({ status: 200, json: SAMPLES.orgs });
      await client.listJoinableOrganizations();
      expect(only().url).to.equal("/api/auth/users/current/deployments/joinable");
    });

    it("names a role outside the enum", async () => {
      const org = SAMPLES.orgs.orgs[0];
      server.always({
        status: 200,
        json: { userId: "u-1", orgs: [{ ...org, features: { ...org.features, defaultUserRole: "ROOT" } }] },
      });
      const error = await rejection(client.listJoinableOrganizations(), CodeSecResponseError);
      expect(error.fieldPath).to.equal("orgs[0].features.defaultUserRole");
      expect(error.expected).to.include("ORG_ROLE_ADMIN");
    });
  });

  describe("listNotificationRules", () => {
    it("POSTs deploymentId and options.optionalLimit as integers", async () => {
      server.always({ status: 200, json: { notification_rules: [SAMPLES.rule(1)] } });
      const page = await client.listNotificationRules({
        deploymentId: "42",
        limit: 25,
        cursor: "c-1",
        filters: { channel: "slack", is_enabled: true },
      });
      expect(page).to.deep.equal({ rules: [SAMPLES.rule(1)] });
      const req = only();
      expect(req.method).to.equal("POST");
      expect(req.path).to.equal("/api/agent/deployments/42/actions/list");
      expect(req.json).to.deep.equal({
        deploymentId: 42,
        options: { optionalLimit: 25, cursor: { token: "c-1" } },
        filters: { channel: "slack", is_enabled: true },
      });
      expect(req.body).to.include('"deploymentId":42').and.include('"optionalLimit":25');
    });

    it("sends no options when neither limit nor cursor is given", async () => {
      server.always({ status: 200, json: { notification_rules: [] } });
      await client.listNotificationRules({ deploymentId: "007" });
      expect(only().json).to.deep.equal({ deploymentId: 7 });
    });

    it("keeps extra rule fields and names a bad snake_case field", async () => {
      server.always({
        status: 200,
        json: { notification_rules: [{ ...SAMPLES.rule(1), priority: "high" }] },
      });
      const page = await client.listNotificationRules({ deploymentId: "42" });
      expect(page.rules[0]).to.deep.equal({ ...SAMPLES.rule(1), priority: "high" });
      server.always({
        status: 200,
        json: { notification_rules: [SAMPLES.rule(1), { ...SAMPLES.rule(2), is_enabled: "true" }] },
      });
      const error = await rejection(
        client.listNotificationRules({ deploymentId: "42" }),
        CodeSecResponseError,
      );
      expect(error.fieldPath).to.equal("notification_rules[1].is_enabled");
    });
  });
});
