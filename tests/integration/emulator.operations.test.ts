/** Each of the ten operations over HTTP: happy path, then its 400 and 404 answers. */
import { expect } from "chai";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { TSchema } from "@sinclair/typebox";
import {
  ApiErrorBody,
  BranchResponse,
  CurrentUserResponse,
  JoinableOrganizationsResponse,
  ListNotificationRulesResponse,
  ProvisionResult,
  ScanResponse,
  ScmAppResponse,
  SubscribeScmWebhookResponse,
  UpdateUserRoleResponse,
} from "../../api/schemas";
import { callApi, errorOf, useEmulator, type ApiResponse } from "../support/emulator";

/** Asserts the body matches `schema` (the same schema the client validates with). */
function expectShape(schema: TSchema, response: ApiResponse): void {
  const checker = TypeCompiler.Compile(schema);
  const problems = [...checker.Errors(response.json)].map((e) => `${e.path}: ${e.message}`);
  expect(problems, response.text).to.deep.equal([]);
}

function expectError(response: ApiResponse, status: number, code: string, message?: RegExp): void {
  expect(response.status, response.text).to.equal(status);
  expectShape(ApiErrorBody, response);
  const error = errorOf(response);
  expect(error.code).to.equal(code);
  expect(error.requestId).to.equal(response.headers.get("x-request-id"));
  if (message) expect(error.message).to.match(message);
}

describe("emulator operations over HTTP", () => {
  const emulator = useEmulator();
  const D = "1001";

  describe("1. update deployment user role", () => {
    const path = (userId: string, deploymentId = D) =>
      `/api/agent/deployments/${deploymentId}/users/${userId}/roles`;

    it("changes the role and answers {}", async () => {
      const res = await callApi(emulator(), "PATCH", path("502"), {
        body: { deploymentId: D, userId: "502", newRole: "ORG_ROLE_READONLY" },
      });
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal({});
      expectShape(UpdateUserRoleResponse, res);
      expect(
        emulator()
          .control.state()
          .users.find((u) => u.id === "502")?.roles[D],
      ).to.equal("ORG_ROLE_READONLY");
    });

    it("is idempotent", async () => {
      const body = { deploymentId: D, userId: "502", newRole: "ORG_ROLE_MEMBER" };
      expect((await callApi(emulator(), "PATCH", path("502"), { body })).status).to.equal(200);
      expect((await callApi(emulator(), "PATCH", path("502"), { body })).status).to.equal(200);
    });

    it("400 on an unknown role, naming the field and the allowed values", async () => {
      const res = await callApi(emulator(), "PATCH", path("502"), {
        body: { deploymentId: D, userId: "502", newRole: "ORG_ROLE_OWNER" },
      });
      expectError(
        res,
        400,
        "INVALID_ARGUMENT",
        /^body\.newRole must be one of ORG_ROLE_ADMIN, ORG_ROLE_MEMBER, ORG_ROLE_IMPERSONATOR, ORG_ROLE_READONLY, got "ORG_ROLE_OWNER"$/,
      );
    });

    it("400 when body ids contradict the path", async () => {
      const res = await callApi(emulator(), "PATCH", path("502"), {
        body: { deploymentId: D, userId: "503", newRole: "ORG_ROLE_MEMBER" },
      });
      expectError(
        res,
        400,
        "INVALID_ARGUMENT",
        /body\.userId \("503"\) must equal the path parameter userId \("502"\)/,
      );
      const res2 = await callApi(emulator(), "PATCH", path("502"), {
        body: { deploymentId: "2002", userId: "502", newRole: "ORG_ROLE_MEMBER" },
      });
      expectError(res2, 400, "INVALID_ARGUMENT", /body\.deploymentId/);
    });

    it("400 on a non-numeric deployment id, 404 on a user who is not a member", async () => {
      const res = await callApi(emulator(), "PATCH", path("502", "acme"), {
        body: { deploymentId: "acme", userId: "502", newRole: "ORG_ROLE_MEMBER" },
      });
      expectError(res, 400, "INVALID_ARGUMENT", /^path parameter deploymentId must be a numeric id/);
      const res2 = await callApi(emulator(), "PATCH", path("601"), {
        body: { deploymentId: D, userId: "601", newRole: "ORG_ROLE_MEMBER" },
      });
      expectError(res2, 404, "NOT_FOUND", /user 601 is not a member of deployment 1001/);
    });
  });

  describe("2. provision CI workflow", () => {
    const path = (deploymentId = D) => `/api/agent/deployments/${deploymentId}/repos/_provision`;

    it("writes the workflow into every matching repository and reports the ones it cannot", async () => {
      const res = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: D, ghaOptions: { prEnabled: true, pushBranches: ["main"] } },
      });
      expect(res.status, res.text).to.equal(200);
      expectShape(ProvisionResult, res);
      const result = res.json as ProvisionResult;
      expect(Object.keys(result.repoFileUrls).sort()).to.deep.equal(["7001", "7002", "7006"]);
      expect(result.repoFileUrls["7001"]).to.equal(
        "https://scm.example.test/acme/payments-api/blob/main/.github/workflows/codesec.yml",
      );
      const byCode = Object.fromEntries(
        result.errors.map((e) => [`${e.code}:${e.ids.join(",")}`, e.message]),
      );
      expect(Object.keys(byCode).sort()).to.deep.equal([
        "UPDATE_ERROR_CODE_BAD_REQUEST:7003",
        "UPDATE_ERROR_CODE_BAD_REQUEST:7005",
        "UPDATE_ERROR_CODE_NO_CODE_ACCESS:7004",
      ]);
      const project = emulator()
        .control.state()
        .projects.find((p) => p.id === "7001");
      expect(project?.workflow?.ghaOptions).to.deep.equal({ prEnabled: true, pushBranches: ["main"] });
    });

    it("applies every filter and excludeIds, and reports ids that do not exist", async () => {
      const res = await callApi(emulator(), "POST", path(), {
        body: {
          deploymentId: D,
          filters: { tagId: 12, codeAccess: true, ids: ["7002", "7006", "8001", "424242"] },
          excludeIds: ["7006"],
        },
      });
      expect(res.status, res.text).to.equal(200);
      const result = res.json as ProvisionResult;
      expect(result.repoFileUrls).to.have.all.keys("7002");
      expect(result.errors).to.deep.equal([
        {
          code: "UPDATE_ERROR_CODE_NOT_FOUND",
          message: "no project with these ids in deployment 1001",
          ids: ["8001", "424242"],
        },
      ]);
    });

    it("search with invertSearch, and a filter matching nothing", async () => {
      const inverted = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: D, filters: { search: "e", invertSearch: true, archived: false } },
      });
      expect(Object.keys((inverted.json as ProvisionResult).repoFileUrls)).to.deep.equal([]);
      const none = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: D, filters: { search: "no-such-project" } },
      });
      expect(none.json).to.deep.equal({ repoFileUrls: {}, errors: [] });
      const recent = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: D, filters: { lastScanSince: "2025-06-01T00:00:00Z", setup: true } },
      });
      expect(Object.keys((recent.json as ProvisionResult).repoFileUrls).sort()).to.deep.equal([
        "7001",
        "7002",
      ]);
    });

    it("400 on a missing or contradicting body deploymentId and on a wrongly typed filter", async () => {
      expectError(
        await callApi(emulator(), "POST", path(), { body: {} }),
        400,
        "INVALID_ARGUMENT",
        /^body\.deploymentId is required \(a numeric id \(digits only\)\)$/,
      );
      expectError(
        await callApi(emulator(), "POST", path(), { body: { deploymentId: "2002" } }),
        400,
        "INVALID_ARGUMENT",
        /must equal the path parameter deploymentId/,
      );
      expectError(
        await callApi(emulator(), "POST", path(), { body: { deploymentId: D, filters: { tagId: "12" } } }),
        400,
        "INVALID_ARGUMENT",
        /^body\.filters\.tagId must be an integer, got "12"$/,
      );
      expectError(
        await callApi(emulator(), "POST", path(), {
          body: { deploymentId: D, filters: { ids: Array.from({ length: 1001 }, (_, i) => String(i)) } },
        }),
        400,
        "INVALID_ARGUMENT",
        /^body\.filters\.ids must be an array of at most 1000 items, got an array$/,
      );
    });
  });

  describe("3. complete SCM app request", () => {
    const path = "/api/scm/app_request_complete";

    it("completes a pending request with its one-time code and answers {app}", async () => {
      const { scmAppRequestId, scmAppCode } = emulator().sample;
      const res = await callApi(emulator(), "PUT", path, {
        body: { requestId: scmAppRequestId, code: scmAppCode },
      });
      expect(res.status, res.text).to.equal(200);
      expectShape(ScmAppResponse, res);
      expect((res.json as ScmAppResponse).app.requestId).to.equal(scmAppRequestId);
      expect((res.json as ScmAppResponse).app.scmType).to.equal("SCM_TYPE_PROVIDERA");
    });

    it("a one-time code cannot be used twice: 409", async () => {
      const { scmAppRequestId, scmAppCode } = emulator().sample;
      await callApi(emulator(), "PUT", path, { body: { requestId: scmAppRequestId, code: scmAppCode } });
      const again = await callApi(emulator(), "PUT", path, {
        body: { requestId: scmAppRequestId, code: scmAppCode },
      });
      expectError(
        again,
        409,
        "FAILED_PRECONDITION",
        new RegExp(
          "already completed; its one-time code cannot be used again \\(read the app: " +
            `GET /api/scm/deployments/${D}/scm_apps/${scmAppRequestId}\\)`,
        ),
      );
    });

    it("400 on a wrong code, 404 on an unknown or foreign request", async () => {
      const { scmAppRequestId } = emulator().sample;
      expectError(
        await callApi(emulator(), "PUT", path, { body: { requestId: scmAppRequestId, code: "wrong" } }),
        400,
        "INVALID_ARGUMENT",
        /body\.code is not the one-time code/,
      );
      expectError(
        await callApi(emulator(), "PUT", path, { body: { requestId: "apprq-nope", code: "x" } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await callApi(emulator(), "PUT", path, {
          body: { requestId: "apprq-2002-a", code: "otc-2002-a-Ny6Jd0Fu" },
        }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await callApi(emulator(), "PUT", path, { body: { requestId: scmAppRequestId } }),
        400,
        "INVALID_ARGUMENT",
        /^body\.code is required \(the request's one-time code \(non-blank, no surrounding spaces\)\)$/,
      );
      // The code was not used up by the failed attempts.
      const ok = await callApi(emulator(), "PUT", path, {
        body: { requestId: scmAppRequestId, code: emulator().sample.scmAppCode },
      });
      expect(ok.status).to.equal(200);
    });
  });

  describe("4. get SCM app", () => {
    const path = (requestId: string, deploymentId = D) =>
      `/api/scm/deployments/${deploymentId}/scm_apps/${requestId}`;

    it("reads a completed app", async () => {
      const res = await callApi(emulator(), "GET", path("apprq-1001-done"));
      expect(res.status, res.text).to.equal(200);
      expectShape(ScmAppResponse, res);
      expect((res.json as ScmAppResponse).app).to.include({
        requestId: "apprq-1001-done",
        slug: "codesec-acme-legacy",
      });
    });

    it("404 while pending, for an unknown id, and for another deployment's request", async () => {
      expectError(
        await callApi(emulator(), "GET", path("apprq-1001-a")),
        404,
        "NOT_FOUND",
        /still pending: no app exists until PUT \/api\/scm\/app_request_complete completes it/,
      );
      expectError(await callApi(emulator(), "GET", path("apprq-unknown")), 404, "NOT_FOUND");
      expectError(await callApi(emulator(), "GET", path("apprq-2002-a")), 404, "NOT_FOUND");
    });

    it("400 on a request id with a forbidden character", async () => {
      expectError(
        await callApi(emulator(), "GET", path("a..b")),
        400,
        "INVALID_ARGUMENT",
        /^path parameter requestId must not be "\." or contain "\.\." \(a non-empty id without .*\), got "a\.\.b"$/,
      );
    });
  });

  describe("5. subscribe to SCM webhook", () => {
    const path = (configId: string, deploymentId = D) =>
      `/api/scm/deployments/${deploymentId}/subscriptions/${configId}`;

    it("subscribes with the events of the configuration's SCM type, idempotently", async () => {
      const first = await callApi(emulator(), "PUT", path("scmcfg-1001-b"));
      expect(first.status, first.text).to.equal(200);
      expectShape(SubscribeScmWebhookResponse, first);
      expect(first.json).to.deep.equal({
        deploymentId: D,
        configId: "scmcfg-1001-b",
        subscription: {
          scmUrl: "https://scm.acme.internal.example",
          events: ["pull_request", "push", "installation", "installation_repositories"],
        },
      });
      const again = await callApi(emulator(), "PUT", path("scmcfg-1001-b"), { body: {} });
      expect(again.json).to.deep.equal(first.json);
    });

    it("404 on an unknown configuration, 400 on a body", async () => {
      expectError(
        await callApi(emulator(), "PUT", path("scmcfg-nope")),
        404,
        "NOT_FOUND",
        /no SCM configuration scmcfg-nope/,
      );
      expectError(
        await callApi(emulator(), "PUT", path("scmcfg-1001-a"), { body: { events: ["push"] } }),
        400,
        "INVALID_ARGUMENT",
        /^PUT \/api\/scm\/deployments\/\{deploymentId\}\/subscriptions\/\{configId\} takes no request body/,
      );
    });
  });

  describe("6. get scan", () => {
    const path = (scanId: string, deploymentId = D) => `/api/v2/deployments/${deploymentId}/scans/${scanId}`;

    it("reads a completed and a running scan", async () => {
      const done = await callApi(emulator(), "GET", path("3001"));
      expect(done.status).to.equal(200);
      expectShape(ScanResponse, done);
      expect((done.json as ScanResponse).scan).to.include({
        status: "SCAN_STATUS_COMPLETED",
        exitCode: 0,
        duration: 300.5,
      });
      const running = (await callApi(emulator(), "GET", path("3002"))).json as ScanResponse;
      expect(running.scan.status).to.equal("SCAN_STATUS_RUNNING");
      expect(running.scan).not.to.have.property("completeTime");
    });

    it("400 on a non-numeric id, 404 on an unknown scan or one of another deployment", async () => {
      expectError(
        await callApi(emulator(), "GET", path("abc")),
        400,
        "INVALID_ARGUMENT",
        /^path parameter scanId must be a numeric id/,
      );
      expectError(
        await callApi(emulator(), "GET", path("999")),
        404,
        "NOT_FOUND",
        /no scan 999 in deployment 1001/,
      );
      expectError(await callApi(emulator(), "GET", path("3201")), 404, "NOT_FOUND");
    });
  });

  describe("7. get branch", () => {
    const path = (projectId: string, branchId: string) =>
      `/api/v2/deployments/${D}/projects/${projectId}/branches/${branchId}`;

    it("reads a branch of a project", async () => {
      const res = await callApi(emulator(), "GET", path("7001", "9101"));
      expect(res.status).to.equal(200);
      expectShape(BranchResponse, res);
      expect(res.json).to.deep.equal({ branch: { id: 9101, name: "refs/heads/main" } });
    });

    it("404 for a branch of another project, a project of another deployment, unknown ids; 400 for non-numeric", async () => {
      expectError(
        await callApi(emulator(), "GET", path("7001", "9103")),
        404,
        "NOT_FOUND",
        /no branch 9103 in project 7001/,
      );
      expectError(
        await callApi(emulator(), "GET", path("8001", "9201")),
        404,
        "NOT_FOUND",
        /no project 8001/,
      );
      expectError(await callApi(emulator(), "GET", path("7001", "1")), 404, "NOT_FOUND");
      expectError(
        await callApi(emulator(), "GET", path("7001", "main")),
        400,
        "INVALID_ARGUMENT",
        /path parameter branchId/,
      );
    });
  });

  describe("8. get current user", () => {
    it("answers the token's owner with the role in the token's deployment", async () => {
      const res = await callApi(emulator(), "GET", "/api/auth/users/current");
      expect(res.status).to.equal(200);
      expectShape(CurrentUserResponse, res);
      expect((res.json as CurrentUserResponse).user).to.include({ id: "501", orgRole: "ORG_ROLE_ADMIN" });
    });

    it("answers the JWT's user", async () => {
      const { credential } = await emulator().control.mintCredential({
        deploymentId: D,
        userId: "503",
        kind: "jwt",
      });
      const res = await callApi(emulator(), "GET", "/api/auth/users/current", { credential });
      expect((res.json as CurrentUserResponse).user).to.include({ id: "503", orgRole: "ORG_ROLE_READONLY" });
    });
  });

  describe("9. list joinable organizations", () => {
    const path = "/api/auth/users/current/deployments/joinable";

    it("lists deployments the caller can join, with or without userId", async () => {
      const res = await callApi(emulator(), "GET", path, { credential: emulator().jwt });
      expect(res.status, res.text).to.equal(200);
      expectShape(JoinableOrganizationsResponse, res);
      const body = res.json as JoinableOrganizationsResponse;
      expect(body.userId).to.equal("501");
      expect(body.orgs.map((o) => o.id)).to.deep.equal(["3003"]);
      const explicit = await callApi(emulator(), "GET", `${path}?userId=501`, { credential: emulator().jwt });
      expect(explicit.json).to.deep.equal(res.json);
    });

    it("403 for another user's id, 400 for an unknown query parameter", async () => {
      expectError(
        await callApi(emulator(), "GET", `${path}?userId=502`, { credential: emulator().jwt }),
        403,
        "PERMISSION_DENIED",
      );
      expectError(
        await callApi(emulator(), "GET", `${path}?user_id=501`, { credential: emulator().jwt }),
        400,
        "INVALID_ARGUMENT",
        /^user_id is not a query parameter of listJoinableOrganizations \(did you mean "userId"\?\); its query parameters are userId$/,
      );
    });
  });

  describe("10. list notification rules", () => {
    const path = (deploymentId = D) => `/api/agent/deployments/${deploymentId}/actions/list`;
    type Page = ListNotificationRulesResponse;

    it("lists every rule of the deployment (default limit 50), with no cursor when nothing follows", async () => {
      const res = await callApi(emulator(), "POST", path(), { body: { deploymentId: 1001 } });
      expect(res.status, res.text).to.equal(200);
      expectShape(ListNotificationRulesResponse, res);
      const page = res.json as Page;
      expect(page.notification_rules.map((r) => r.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
      expect(page).not.to.have.property("cursor");
      expect(page.notification_rules.find((r) => r.id === 5)?.config_error).to.not.equal("");
      expect(page.notification_rules[0]).not.to.have.property("deploymentId");
    });

    it("pages with optionalLimit and the opaque cursor", async () => {
      const seen: number[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const options = { optionalLimit: 3, ...(token ? { cursor: { token } } : {}) };
        const res = await callApi(emulator(), "POST", path(), { body: { deploymentId: 1001, options } });
        expect(res.status, res.text).to.equal(200);
        const page = res.json as Page;
        seen.push(...page.notification_rules.map((r) => r.id));
        token = page.cursor?.token;
        pages += 1;
      } while (token);
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    });

    it("filters by channel and is_enabled, and a cursor continues only its own listing", async () => {
      const slack = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: 1001, filters: { channel: "slack" } },
      });
      expect((slack.json as Page).notification_rules.map((r) => r.id)).to.deep.equal([1, 4]);
      const disabled = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: 1001, filters: { is_enabled: false } },
      });
      expect((disabled.json as Page).notification_rules.map((r) => r.id)).to.deep.equal([4]);
      const first = await callApi(emulator(), "POST", path(), {
        body: { deploymentId: 1001, options: { optionalLimit: 1 }, filters: { channel: "email" } },
      });
      const token = (first.json as Page).cursor?.token;
      expect(token).to.be.a("string");
      expectError(
        await callApi(emulator(), "POST", path(), {
          body: { deploymentId: 1001, options: { cursor: { token } } },
        }),
        400,
        "INVALID_ARGUMENT",
        /issued for different filters/,
      );
    });

    it("400 on a limit out of range, a forged cursor, a contradicting or string deploymentId, an unknown filter", async () => {
      for (const optionalLimit of [0, 101]) {
        expectError(
          await callApi(emulator(), "POST", path(), {
            body: { deploymentId: 1001, options: { optionalLimit } },
          }),
          400,
          "INVALID_ARGUMENT",
          /^body\.options\.optionalLimit must be an integer between 1 and 100, got (0|101) \(an integer\)$/,
        );
      }
      expectError(
        await callApi(emulator(), "POST", path(), {
          body: { deploymentId: 1001, options: { cursor: { token: "forged" } } },
        }),
        400,
        "INVALID_ARGUMENT",
        /cursor\.token is not a cursor/,
      );
      expectError(
        await callApi(emulator(), "POST", path(), { body: { deploymentId: 2002 } }),
        400,
        "INVALID_ARGUMENT",
        /body\.deploymentId \(2002\) must equal the path parameter deploymentId \(1001\)/,
      );
      expectError(
        await callApi(emulator(), "POST", path(), { body: { deploymentId: "1001" } }),
        400,
        "INVALID_ARGUMENT",
        /^body\.deploymentId must be an integer >= 0, got "1001"$/,
      );
      expectError(
        await callApi(emulator(), "POST", path(), {
          body: { deploymentId: 1001, filters: { severity: "high" } },
        }),
        400,
        "INVALID_ARGUMENT",
        /^severity is not a field of body\.filters; its fields are /,
      );
    });
  });
});
