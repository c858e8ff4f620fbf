import { Type, type TSchema } from "@sinclair/typebox";
import { expect } from "chai";
import { JoinableOrganizationsQuery, NumericId, ProvisionBody } from "../../api";
import { ApiError, codeForStatus } from "../../emulator/errors";
import { schemaValidatorCompiler } from "../../emulator/requestValidation";
import { FaultInjector } from "../../emulator/faults";
import { defaultFixtures } from "../../emulator/defaultFixtures";
import { type FixtureProject } from "../../emulator/fixtureSchema";
import { decodeCursor, encodeCursor } from "../../emulator/routes/notificationRules";
import { matchesFilters, workflowFileUrl } from "../../emulator/routes/provisioning";
import { webhookEventsFor } from "../../emulator/routes/scm";

const projects = defaultFixtures().projects.filter((p) => p.deploymentId === "1001");
const ids = (list: FixtureProject[]) => list.map((p) => p.id);

describe("emulator rules", () => {
  describe("provision filters", () => {
    it("no filters match every project", () => {
      expect(ids(projects.filter((p) => matchesFilters(p, {})))).to.deep.equal(ids(projects));
    });

    it("search is a case-insensitive substring of the name, invertSearch negates it", () => {
      expect(ids(projects.filter((p) => matchesFilters(p, { search: "API" })))).to.deep.equal(["7001"]);
      expect(
        ids(projects.filter((p) => matchesFilters(p, { search: "api", invertSearch: true }))),
      ).not.to.include("7001");
      expect(ids(projects.filter((p) => matchesFilters(p, { invertSearch: true })))).to.have.length(
        projects.length,
      );
    });

    it("boolean filters, tagId, ids and lastScanSince", () => {
      expect(ids(projects.filter((p) => matchesFilters(p, { codeAccess: false })))).to.deep.equal(["7004"]);
      expect(ids(projects.filter((p) => matchesFilters(p, { archived: true })))).to.deep.equal(["7003"]);
      expect(ids(projects.filter((p) => matchesFilters(p, { setup: false })))).to.deep.equal([
        "7004",
        "7006",
      ]);
      expect(ids(projects.filter((p) => matchesFilters(p, { hasSmsSetup: true })))).to.deep.equal(["7001"]);
      expect(ids(projects.filter((p) => matchesFilters(p, { isScmRepository: false })))).to.deep.equal([
        "7005",
      ]);
      expect(ids(projects.filter((p) => matchesFilters(p, { isLocalScanProject: true })))).to.deep.equal([
        "7005",
      ]);
      expect(ids(projects.filter((p) => matchesFilters(p, { tagId: 12 })))).to.deep.equal([
        "7002",
        "7004",
        "7006",
      ]);
      expect(ids(projects.filter((p) => matchesFilters(p, { ids: ["7002", "7003"] })))).to.deep.equal([
        "7002",
        "7003",
      ]);
      expect(
        ids(projects.filter((p) => matchesFilters(p, { lastScanSince: "2025-06-01T00:00:00Z" }))),
      ).to.deep.equal(["7001", "7002"]);
    });

    it("the workflow file lives under .github/workflows on the default branch", () => {
      expect(workflowFileUrl(projects[0])).to.equal(
        "https://scm.example.test/acme/payments-api/blob/main/.github/workflows/codesec.yml",
      );
    });
  });

  describe("notification rule cursors", () => {
    const key = new Uint8Array(32).fill(1);
    const position = { deploymentId: "1001", afterId: 3, filters: "[null,null]" };

    it("round-trips", () => {
      expect(decodeCursor(key, encodeCursor(key, position))).to.deep.equal(position);
    });

    it("refuses altered, foreign and garbage tokens", () => {
      const token = encodeCursor(key, position);
      const [body, mac] = token.split(".") as [string, string];
      const altered = Buffer.from(JSON.stringify({ v: 1, ...position, afterId: 0 })).toString("base64url");
      expect(decodeCursor(key, `${altered}.${mac}`)).to.equal(undefined);
      expect(decodeCursor(new Uint8Array(32).fill(2), token)).to.equal(undefined);
      expect(decodeCursor(key, body)).to.equal(undefined);
      expect(decodeCursor(key, "not-a-cursor")).to.equal(undefined);
      expect(decodeCursor(key, `${token}.extra`)).to.equal(undefined);
    });
  });

  describe("request validation messages", () => {
    type Validate = (data: unknown) => true | { error: ApiError };
    const validator = (schema: TSchema, method: string, url: string, httpPart: string): Validate =>
      schemaValidatorCompiler({ schema, method, url, httpPart }) as Validate;
    const messageOf = (validate: Validate, data: unknown): string => {
      const result = validate(data);
      if (result === true) throw new Error("expected a validation failure");
      expect(result.error).to.be.instanceOf(ApiError).and.include({ status: 400, code: "INVALID_ARGUMENT" });
      return result.error.message;
    };
    const scanParams = Type.Object(
      { deploymentId: NumericId, scanId: NumericId },
      { additionalProperties: false },
    );

    it("name the field and say what is expected and what was found", () => {
      const params = validator(
        scanParams,
        "GET",
        "/api/v2/deployments/:deploymentId/scans/:scanId",
        "params",
      );
      expect(messageOf(params, { deploymentId: "1001", scanId: "x" })).to.equal(
        'path parameter scanId must be a numeric id (digits only), got "x"',
      );
      const body = validator(
        ProvisionBody,
        "POST",
        "/api/agent/deployments/:deploymentId/repos/_provision",
        "body",
      );
      expect(messageOf(body, { deploymentId: "1001", filters: { x: 1 } })).to.match(
        /^x is not a field of body\.filters; its fields are /,
      );
      expect(messageOf(body, { deploymentId: "1001", filters: { ids: ["1", "2", 3] } })).to.equal(
        "body.filters.ids[2] must be a string (a numeric id (digits only)), got 3 (an integer)",
      );
      expect(messageOf(body, null)).to.equal("body is required (an object)");
      const query = validator(
        JoinableOrganizationsQuery,
        "GET",
        "/api/auth/users/current/deployments/joinable",
        "querystring",
      );
      expect(messageOf(query, { userId: "a/b" })).to.match(
        /^query parameter userId must be a non-empty id without .*, got "a\/b"$/,
      );
      expect(messageOf(query, { user_id: "501" })).to.equal(
        'user_id is not a query parameter of listJoinableOrganizations (did you mean "userId"?); its query parameters are userId',
      );
    });

    it("accept a conforming value as it is: nothing coerced, removed or defaulted", () => {
      const params = validator(
        scanParams,
        "GET",
        "/api/v2/deployments/:deploymentId/scans/:scanId",
        "params",
      );
      const value = { deploymentId: "1001", scanId: "3001" };
      expect(params(value)).to.equal(true);
      expect(value).to.deep.equal({ deploymentId: "1001", scanId: "3001" });
    });
  });

  describe("status codes of injected faults", () => {
    it("follow the emulator's code table", () => {
      expect(codeForStatus(429)).to.equal("RESOURCE_EXHAUSTED");
      expect(codeForStatus(503)).to.equal("UNAVAILABLE");
      expect(codeForStatus(502)).to.equal("UNAVAILABLE");
      expect(codeForStatus(500)).to.equal("INTERNAL");
      expect(codeForStatus(404)).to.equal("NOT_FOUND");
    });
  });

  describe("fault matching", () => {
    it("matches by operation, method and path (concrete or template), and counts down", () => {
      const faults = new FaultInjector();
      faults.add({ operation: "getScan", status: 503, count: 2 });
      faults.add({ method: "get", path: "/api/auth/users/current", status: 500 });
      faults.add({
        path: "/api/v2/deployments/{deploymentId}/projects/{projectId}/branches/{branchId}",
        latencyMs: 5,
      });
      expect(faults.take("getScan", "GET", "/api/v2/deployments/1001/scans/1")?.status).to.equal(503);
      expect(faults.take("getScan", "GET", "/api/v2/deployments/1001/scans/2")?.status).to.equal(503);
      expect(faults.take("getScan", "GET", "/api/v2/deployments/1001/scans/3")).to.equal(undefined);
      expect(faults.take("getCurrentUser", "GET", "/api/auth/users/current")?.status).to.equal(500);
      expect(
        faults.take("getBranch", "GET", "/api/v2/deployments/1/projects/2/branches/3")?.latencyMs,
      ).to.equal(5);
      expect(faults.list()).to.deep.equal([]);
    });

    it("refuses a fault that does nothing or answers twice", () => {
      const faults = new FaultInjector();
      expect(() => faults.add({ operation: "getScan" })).to.throw(/at least one of/);
      expect(() => faults.add({ status: 500, drop: true })).to.throw(/at most one of/);
    });
  });

  describe("webhook subscriptions", () => {
    it("events depend on the SCM type", () => {
      expect(webhookEventsFor("SCM_TYPE_PROVIDERA")).to.include.members(["pull_request", "push"]);
      expect(webhookEventsFor("SCM_TYPE_UNKNOWN")).to.deep.equal(["pull_request", "push"]);
    });
  });
});
