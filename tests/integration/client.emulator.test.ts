/**
 * The typed client against the real emulator: every operation with every response field checked
 * (expected values derived from the emulator's deterministic default fixtures), authentication and
 * permission failures with their hints, 404 and 400 answers, and retries and timeouts through the
 * emulator's fault injection. Each test starts from fresh fixtures (useEmulator resets).
 */
import { expect } from "chai";
import * as util from "util";
import {
  CodeSecApiError,
  CodeSecClient,
  CodeSecInputError,
  CodeSecNetworkError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  CodeSecResponseError,
  CodeSecTimeoutError,
  type CodeSecClientOptions,
  type NotificationRule,
  type ScmApp,
} from "../../client";
import { defaultFixtures, type EmulatorHandle } from "../../emulator/index";
import { useEmulator } from "../support/emulator";
import { rejection } from "../support/fakeServer";

const FIXTURES = defaultFixtures();

function assertNoSecret(value: unknown, secret: string): void {
  const views = [util.inspect(value, { showHidden: true, depth: Infinity }), JSON.stringify(value) ?? ""];
  if (value instanceof Error) views.push(value.message, value.stack ?? "");
  for (const view of views) expect(view).not.to.include(secret);
}

/** The API view of a fixture notification rule (the emulator keeps its deployment beside it). */
function apiRule(rule: (typeof FIXTURES.notificationRules)[number]): NotificationRule {
  const { deploymentId: _deploymentId, ...rest } = rule;
  return rest;
}

describe("CodeSecClient against the emulator", function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  function client(options: Partial<CodeSecClientOptions> = {}): CodeSecClient {
    const e = emulator();
    return new CodeSecClient({ baseUrl: e.baseUrl, token: e.apiToken, maxRetryDelayMs: 20, ...options });
  }

  async function mint(
    e: EmulatorHandle,
    request: {
      userId?: string;
      kind?: "apiToken" | "jwt";
      webApi?: boolean;
      scoped?: boolean;
      deploymentId?: string;
    },
  ): Promise<string> {
    const { credential } = await e.control.mintCredential({
      deploymentId: request.deploymentId ?? e.deploymentId,
      userId: request.userId ?? e.sample.userId,
      kind: request.kind ?? "apiToken",
      ...(request.webApi === undefined ? {} : { webApi: request.webApi }),
      ...(request.scoped === undefined ? {} : { scoped: request.scoped }),
    });
    return credential;
  }

  function requests(): ReturnType<EmulatorHandle["control"]["requests"]> {
    return emulator().control.requests();
  }

  describe("every operation", () => {
    it("updateUserRole changes the member's role (body ids filled from the path)", async () => {
      const e = emulator();
      const member = e.sample.memberUserId;
      await client().updateUserRole({
        deploymentId: e.deploymentId,
        userId: member,
        newRole: "ORG_ROLE_READONLY",
      });
      expect(requests().map((r) => [r.method, r.path, r.status])).to.deep.equal([
        ["PATCH", `/api/agent/deployments/${e.deploymentId}/users/${member}/roles`, 200],
      ]);
      const memberClient = client({ token: await mint(e, { userId: member }) });
      expect((await memberClient.getCurrentUser()).orgRole).to.equal("ORG_ROLE_READONLY");
    });

    it("provisionWorkflows returns the file URLs and the partial errors", async () => {
      const e = emulator();
      const result = await client().provisionWorkflows({
        deploymentId: e.deploymentId,
        filters: { ids: ["7001", "7003", "7004", "7005", "7999"] },
        excludeIds: ["7002"],
        ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
      });
      const payments = FIXTURES.projects.find((p) => p.id === "7001")!;
      expect(result).to.deep.equal({
        repoFileUrls: { "7001": `${payments.repoUrl}/blob/main/.github/workflows/codesec.yml` },
        errors: result.errors,
      });
      const byCode = Object.fromEntries(result.errors.map((error) => [error.code, error]));
      expect(byCode.UPDATE_ERROR_CODE_NOT_FOUND.ids).to.deep.equal(["7999"]);
      expect(byCode.UPDATE_ERROR_CODE_NO_CODE_ACCESS.ids).to.deep.equal(["7004"]);
      const badRequest = result.errors.filter((error) => error.code === "UPDATE_ERROR_CODE_BAD_REQUEST");
      expect(badRequest.flatMap((error) => error.ids).sort()).to.deep.equal(["7003", "7005"]);
      for (const error of result.errors) {
        expect(error.message).to.be.a("string").and.not.equal("");
        expect(Object.keys(error).sort()).to.deep.equal(["code", "ids", "message"]);
      }
    });

    it("completeScmAppRequest returns the app, then getScmApp reads it back", async () => {
      const e = emulator();
      const fixture = FIXTURES.scmAppRequests.find((r) => r.requestId === e.sample.scmAppRequestId)!;
      const expected: ScmApp = { ...fixture.app, requestId: fixture.requestId };
      const pending = await rejection(
        client().getScmApp({ deploymentId: e.deploymentId, requestId: fixture.requestId }),
        CodeSecApiError,
      );
      expect(pending.status).to.equal(404);

      const completed = await client().completeScmAppRequest({
        requestId: fixture.requestId,
        code: e.sample.scmAppCode,
      });
      expect(completed).to.deep.equal(expected);
      const read = await client().getScmApp({ deploymentId: e.deploymentId, requestId: fixture.requestId });
      expect(read).to.deep.equal(expected);

      const again = await rejection(
        client().completeScmAppRequest({ requestId: fixture.requestId, code: e.sample.scmAppCode }),
        CodeSecApiError,
      );
      expect(again).to.include({ status: 409, code: "FAILED_PRECONDITION", retried: false });
      assertNoSecret(again, e.sample.scmAppCode);
    });

    it("subscribeScmWebhook returns the subscription", async () => {
      const e = emulator();
      const config = FIXTURES.scmConfigurations.find((c) => c.configId === e.sample.scmConfigId)!;
      const result = await client().subscribeScmWebhook({
        deploymentId: e.deploymentId,
        configId: config.configId,
      });
      expect(result).to.deep.equal({
        deploymentId: e.deploymentId,
        configId: config.configId,
        subscription: {
          scmUrl: config.scmUrl,
          events: ["pull_request", "push", "installation", "installation_repositories"],
        },
      });
    });

    it("getScan returns every field of a completed and a running scan", async () => {
      const e = emulator();
      for (const fixture of FIXTURES.scans.filter((s) => s.deploymentId === e.deploymentId)) {
        const scan = await client().getScan({ deploymentId: e.deploymentId, scanId: fixture.id });
        expect(scan).to.deep.equal(fixture);
      }
    });

    it("getBranch returns the branch", async () => {
      const e = emulator();
      const fixture = FIXTURES.branches.find((b) => String(b.id) === e.sample.branchId)!;
      const branch = await client().getBranch({
        deploymentId: e.deploymentId,
        projectId: e.sample.projectId,
        branchId: e.sample.branchId,
      });
      expect(branch).to.deep.equal({ id: fixture.id, name: fixture.name });
    });

    it("getCurrentUser returns the token's user with its role", async () => {
      const e = emulator();
      const fixture = FIXTURES.users.find((u) => u.id === e.sample.userId)!;
      const { roles: _roles, ...fields } = fixture;
      for (const token of [e.apiToken, e.jwt]) {
        const user = await client({ token }).getCurrentUser();
        expect(user).to.deep.equal({ ...fields, orgRole: "ORG_ROLE_ADMIN" });
      }
    });

    it("listJoinableOrganizations with a user JWT", async () => {
      const e = emulator();
      const expected = FIXTURES.deployments
        .filter((d) => d.joinableUserIds.includes(e.sample.userId))
        .map(({ joinableUserIds: _j, ...org }) => org);
      expect(expected).not.to.have.length(0);
      const jwtClient = client({ token: e.jwt });
      expect(await jwtClient.listJoinableOrganizations({ userId: e.sample.userId })).to.deep.equal({
        userId: e.sample.userId,
        orgs: expected,
      });
      expect(await jwtClient.listJoinableOrganizations()).to.deep.equal({
        userId: e.sample.userId,
        orgs: expected,
      });
    });

    it("listNotificationRules pages with limit and cursor", async () => {
      const e = emulator();
      const all = FIXTURES.notificationRules.filter((r) => r.deploymentId === e.deploymentId).map(apiRule);
      const first = await client().listNotificationRules({ deploymentId: e.deploymentId, limit: 3 });
      expect(first.rules).to.deep.equal(all.slice(0, 3));
      expect(first.nextCursor).to.be.a("string");
      const second = await client().listNotificationRules({
        deploymentId: e.deploymentId,
        limit: 3,
        cursor: first.nextCursor!,
      });
      expect(second.rules).to.deep.equal(all.slice(3, 6));
    });

    it("listAllNotificationRules follows every cursor, with filters", async () => {
      const e = emulator();
      const all = FIXTURES.notificationRules.filter((r) => r.deploymentId === e.deploymentId).map(apiRule);
      expect(
        await client().listAllNotificationRules({ deploymentId: e.deploymentId, pageSize: 2 }),
      ).to.deep.equal(all);
      expect(requests()).to.have.length(Math.ceil(all.length / 2));
      const enabledSlack = await client().listAllNotificationRules({
        deploymentId: e.deploymentId,
        pageSize: 1,
        filters: { channel: "slack", is_enabled: true },
      });
      expect(enabledSlack).to.deep.equal(all.filter((r) => r.channel === "slack" && r.is_enabled));
      expect(await client().listAllNotificationRules({ deploymentId: e.deploymentId })).to.deep.equal(all);
    });
  });

  describe("authentication and permissions", () => {
    it("cannot be built without a token, so nothing is sent", () => {
      const e = emulator();
      expect(() => new CodeSecClient({ baseUrl: e.baseUrl, token: "" }))
        .to.throw(CodeSecInputError)
        .with.property("field", "token");
      expect(requests()).to.have.length(0);
    });

    it("401 for an unknown token, with the token hint and no token in the error", async () => {
      const bad = "cst_1001_unknown_0000000000000000";
      const error = await rejection(client({ token: bad }).getCurrentUser(), CodeSecApiError);
      expect(error).to.include({
        status: 401,
        code: "UNAUTHENTICATED",
        operation: "getCurrentUser",
        retried: false,
      });
      expect(error.message).to.include("codesec:token").and.include("CODESEC_TOKEN");
      expect(error.requestId).to.be.a("string");
      assertNoSecret(error, bad);
    });

    it("401 for an expired token", async () => {
      const e = emulator();
      const { credential } = await e.control.mintCredential({
        deploymentId: e.deploymentId,
        userId: e.sample.userId,
        kind: "apiToken",
        expiresInSeconds: -60,
      });
      const error = await rejection(
        client({ token: credential }).getScan({ deploymentId: e.deploymentId, scanId: e.sample.scanId }),
        CodeSecApiError,
      );
      expect(error.status).to.equal(401);
      assertNoSecret(error, credential);
    });

    it("403 for a scope-restricted token", async () => {
      const e = emulator();
      const token = await mint(e, { scoped: true });
      const error = await rejection(
        client({ token }).getScan({ deploymentId: e.deploymentId, scanId: e.sample.scanId }),
        CodeSecApiError,
      );
      expect(error).to.include({ status: 403, code: "PERMISSION_DENIED" });
      expect(error.message).to.include("scope restriction").and.include("Web API permission");
      expect(error.platformMessage).to.include("scopes");
    });

    it("403 for a token without the Web API permission", async () => {
      const e = emulator();
      const token = await mint(e, { webApi: false });
      const error = await rejection(client({ token }).getCurrentUser(), CodeSecApiError);
      expect(error).to.include({ status: 403, code: "PERMISSION_DENIED" });
      expect(error.message).to.include("Web API permission");
    });

    it("403 on `listJoinableOrganizations` with an API token: it needs a user JWT", async () => {
      const e = emulator();
      const error = await rejection(
        client().listJoinableOrganizations({ userId: e.sample.userId }),
        CodeSecApiError,
      );
      expect(error).to.include({ status: 403, operation: "listJoinableOrganizations" });
      expect(error.message).to.include("only a user JWT, not an API token");
    });

    it("403 on `listJoinableOrganizations` for another user's id", async () => {
      const e = emulator();
      const error = await rejection(
        client({ token: e.jwt }).listJoinableOrganizations({ userId: e.sample.memberUserId }),
        CodeSecApiError,
      );
      expect(error.status).to.equal(403);
      expect(error.message).to.include("userId must be the caller's own user id");
    });

    it("403 for a member changing roles (admin needed)", async () => {
      const e = emulator();
      const token = await mint(e, { userId: e.sample.memberUserId });
      const error = await rejection(
        client({ token }).updateUserRole({
          deploymentId: e.deploymentId,
          userId: e.sample.userId,
          newRole: "ORG_ROLE_MEMBER",
        }),
        CodeSecApiError,
      );
      expect(error).to.include({ status: 403, operation: "updateUserRole" });
      expect(error.message).to.include("role");
    });

    it("403 for another deployment", async () => {
      const other = FIXTURES.deployments.find((d) => d.id !== emulator().deploymentId)!;
      const error = await rejection(
        client().getScan({ deploymentId: other.id, scanId: "3201" }),
        CodeSecApiError,
      );
      expect(error.status).to.equal(403);
    });
  });

  describe("404 and 400 answers", () => {
    it("404 for an unknown scan, branch, SCM app and SCM configuration, with the id hint", async () => {
      const e = emulator();
      const d = e.deploymentId;
      const calls: [Promise<unknown>, string][] = [
        [client().getScan({ deploymentId: d, scanId: "999999" }), "scanId"],
        [
          client().getBranch({ deploymentId: d, projectId: e.sample.projectId, branchId: "999999" }),
          "branchId",
        ],
        [client().getScmApp({ deploymentId: d, requestId: "no-such-request" }), "requestId"],
        [client().subscribeScmWebhook({ deploymentId: d, configId: "no-such-config" }), "configId"],
      ];
      for (const [call, id] of calls) {
        const error = await rejection(call, CodeSecApiError);
        expect(error).to.include({ status: 404, code: "NOT_FOUND", retried: false, attempts: 1 });
        expect(error.message).to.include("Check the ids").and.include(id);
      }
    });

    it("400 for a wrong one-time code, never echoing the code", async () => {
      const e = emulator();
      const code = "otc-wrong-code-123456";
      const error = await rejection(
        client().completeScmAppRequest({ requestId: e.sample.scmAppRequestId, code }),
        CodeSecApiError,
      );
      expect(error).to.include({ status: 400, code: "INVALID_ARGUMENT", attempts: 1 });
      assertNoSecret(error, code);
      assertNoSecret(error, e.apiToken);
    });

    it("400 for a forged cursor, and for a cursor reused with other filters", async () => {
      const e = emulator();
      const forged = await rejection(
        client().listNotificationRules({ deploymentId: e.deploymentId, cursor: "forged.cursor" }),
        CodeSecApiError,
      );
      expect(forged).to.include({ status: 400, code: "INVALID_ARGUMENT" });
      expect(forged.message).to.include("correct them");
      const first = await client().listNotificationRules({ deploymentId: e.deploymentId, limit: 1 });
      const mixed = await rejection(
        client().listNotificationRules({
          deploymentId: e.deploymentId,
          limit: 1,
          cursor: first.nextCursor!,
          filters: { channel: "email" },
        }),
        CodeSecApiError,
      );
      expect(mixed.status).to.equal(400);
    });

    it("a bad path parameter never reaches the emulator", async () => {
      const e = emulator();
      await rejection(
        client().getScan({ deploymentId: e.deploymentId, scanId: "../3001" }),
        CodeSecInputError,
      );
      await rejection(
        client().getScmApp({ deploymentId: e.deploymentId, requestId: "a/b" }),
        CodeSecInputError,
      );
      expect(requests()).to.have.length(0);
    });
  });

  describe("retries and timeouts through injected faults", () => {
    it("fails at once on a Retry-After above the cap, with the time to wait", async () => {
      const e = emulator();
      e.control.addFault({ operation: "getScan", status: 429, retryAfter: "120", count: 5 });
      const error = await rejection(
        client({ maxRetryDelayMs: 1000 }).getScan({ deploymentId: e.deploymentId, scanId: e.sample.scanId }),
        CodeSecRateLimitError,
      );
      expect(error).to.include({
        status: 429,
        code: "RESOURCE_EXHAUSTED",
        attempts: 1,
        retryAfterMs: 120_000,
      });
      expect(error.message).to.include("120 s").and.include("codesec:maxRetryDelayMs");
      expect(requests()).to.have.length(1);
    });

    it("retries an injected 429 with Retry-After, then succeeds", async () => {
      const e = emulator();
      e.control.addFault({ operation: "getScan", status: 429, retryAfter: "1" });
      const started = Date.now();
      const scan = await client({ maxRetryDelayMs: 2000 }).getScan({
        deploymentId: e.deploymentId,
        scanId: e.sample.scanId,
      });
      expect(Date.now() - started).to.be.at.least(900);
      expect(scan.id).to.equal(e.sample.scanId);
      expect(requests().map((r) => [r.status, r.fault])).to.deep.equal([
        [429, "status"],
        [200, undefined],
      ]);
    });

    it("retries injected 503s, then succeeds", async () => {
      const e = emulator();
      e.control.addFault({ operation: "getCurrentUser", status: 503, count: 2 });
      const user = await client().getCurrentUser();
      expect(user.id).to.equal(e.sample.userId);
      expect(requests().map((r) => r.status)).to.deep.equal([503, 503, 200]);
    });

    it("gives up after retries + 1 attempts of 503", async () => {
      const e = emulator();
      e.control.addFault({ operation: "getCurrentUser", status: 503, count: 10 });
      const error = await rejection(client({ retries: 2 }).getCurrentUser(), CodeSecApiError);
      expect(error).to.include({ status: 503, attempts: 3, retried: true, code: "UNAVAILABLE" });
      expect(error.message).to.include("safe to run again");
      expect(requests()).to.have.length(3);
    });

    it("retries a dropped connection of an idempotent write (`subscribeScmWebhook`)", async () => {
      const e = emulator();
      e.control.addFault({ operation: "subscribeScmWebhook", drop: true });
      const result = await client().subscribeScmWebhook({
        deploymentId: e.deploymentId,
        configId: e.sample.scmConfigId,
      });
      expect(result.configId).to.equal(e.sample.scmConfigId);
      expect(requests().map((r) => r.status)).to.deep.equal([0, 200]);
    });

    it("does not retry an injected 500 or a malformed 200 body", async () => {
      const e = emulator();
      e.control.addFault({ operation: "getScan", status: 500 });
      const failed = await rejection(
        client().getScan({ deploymentId: e.deploymentId, scanId: e.sample.scanId }),
        CodeSecApiError,
      );
      expect(failed).to.include({ status: 500, attempts: 1 });
      e.control.addFault({ operation: "getScan", malformed: true });
      const malformed = await rejection(
        client().getScan({ deploymentId: e.deploymentId, scanId: e.sample.scanId }),
        CodeSecResponseError,
      );
      expect(malformed.message).to.include("not JSON");
      // Distinct request ids: the emulator's log may list a hijacked (malformed) answer twice.
      expect(new Set(requests().map((r) => r.requestId)).size).to.equal(2);
    });

    it("times out on injected latency (CodeSecTimeoutError) and retries a read", async () => {
      const e = emulator();
      e.control.addFault({ operation: "getScan", latencyMs: 3000 });
      const scan = await client({ timeoutMs: 300, retries: 1 }).getScan({
        deploymentId: e.deploymentId,
        scanId: e.sample.scanId,
      });
      expect(scan.id).to.equal(e.sample.scanId);

      e.control.addFault({ operation: "getScan", latencyMs: 3000, count: 2 });
      const error = await rejection(
        client({ timeoutMs: 200, retries: 1 }).getScan({
          deploymentId: e.deploymentId,
          scanId: e.sample.scanId,
        }),
        CodeSecTimeoutError,
      );
      expect(error).to.include({ timeoutMs: 200, attempts: 2, retried: true });
      assertNoSecret(error, e.apiToken);
    });

    it("retries an idempotent write (`updateUserRole`) after a dropped connection, and sets the role", async () => {
      const e = emulator();
      e.control.addFault({ operation: "updateUserRole", drop: true });
      await client().updateUserRole({
        deploymentId: e.deploymentId,
        userId: e.sample.memberUserId,
        newRole: "ORG_ROLE_READONLY",
      });
      expect(requests().map((r) => r.status)).to.deep.equal([0, 200]);
    });

    it("never repeats `completeScmAppRequest` after a dropped connection; getScmApp then tells whether it was completed", async () => {
      const e = emulator();
      const args = { requestId: e.sample.scmAppRequestId, code: e.sample.scmAppCode };
      e.control.addFault({ operation: "completeScmAppRequest", drop: true });
      const error = await rejection(client().completeScmAppRequest(args), CodeSecOutcomeUnknownError);
      expect(error).to.include({ failure: "network", attempts: 1 });
      expect(error.message).to.include("getScmApp");
      assertNoSecret(error, e.sample.scmAppCode);
      expect(requests().map((r) => r.status)).to.deep.equal([0]);

      // The emulator dropped it before acting: the app is still pending, so the same code may be used.
      const read = { deploymentId: e.deploymentId, requestId: args.requestId };
      expect((await rejection(client().getScmApp(read), CodeSecApiError)).status).to.equal(404);
      const app = await client().completeScmAppRequest(args);
      expect((await client().getScmApp(read)).id).to.equal(app.id);
    });

    it("never repeats `completeScmAppRequest` after a 503", async () => {
      const e = emulator();
      e.control.addFault({ operation: "completeScmAppRequest", status: 503, count: 3 });
      const error = await rejection(
        client().completeScmAppRequest({ requestId: e.sample.scmAppRequestId, code: e.sample.scmAppCode }),
        CodeSecOutcomeUnknownError,
      );
      expect(error).to.include({ failure: "status", status: 503, attempts: 1 });
      expect(e.control.faults()[0].remaining).to.equal(2);
    });

    it("names the base URL when the emulator is gone", async () => {
      const e = emulator();
      const stopped = await (await import("../../emulator/index")).startEmulator({ quiet: true });
      const baseUrl = stopped.baseUrl;
      await stopped.close();
      const error = await rejection(
        new CodeSecClient({ baseUrl, token: e.apiToken, retries: 1, maxRetryDelayMs: 10 }).getCurrentUser(),
        CodeSecNetworkError,
      );
      expect(error).to.include({ baseUrl, code: "ECONNREFUSED", attempts: 2, requestMayHaveArrived: false });
      assertNoSecret(error, e.apiToken);
    });
  });
});
