/** Path parameters and other arguments: validated before any request, then percent-encoded. */
import { expect } from "chai";
import { CodeSecInputError, OPERATIONS, type CodeSecClient } from "../../client";
import { buildPath, encodePathSegment } from "../../client/pathParams";
import { FakeServer, SAMPLES, rejection } from "../support/fakeServer";

describe("CodeSecClient argument validation", () => {
  let server: FakeServer;
  let client: CodeSecClient;
  beforeEach(async () => {
    server = await FakeServer.start();
    client = server.client();
  });
  afterEach(async () => {
    // Invalid input must never reach the wire.
    await server.close();
  });

  async function rejectsInput(
    call: () => Promise<unknown>,
    field: string,
    includes?: string,
  ): Promise<CodeSecInputError> {
    const error = await rejection(call(), CodeSecInputError);
    expect(error.field).to.equal(field);
    if (includes !== undefined) expect(error.message).to.include(includes);
    expect(server.requests, "no request may be sent").to.have.length(0);
    return error;
  }

  describe("numeric ids", () => {
    const bad: [unknown, string][] = [
      ["", "must not be empty"],
      ["   ", "must not be empty"],
      ["abc", 'scanId must be a numeric id (digits only), got "abc"'],
      ["12a", "digits only"],
      ["-1", "digits only"],
      ["1.5", "digits only"],
      ["../1", "digits only"],
      ["1/2", "digits only"],
      ["١٢", "digits only"],
      ["1".repeat(21), "at most 20 digits"],
      [42, "scanId must be a string (a numeric id (digits only)), got 42 (an integer)"],
      [undefined, "scanId is required"],
      [null, "scanId must be a string (a numeric id (digits only)), got null"],
    ];
    for (const [value, message] of bad) {
      it(`rejects scanId ${JSON.stringify(value) ?? "undefined"}`, async () => {
        await rejectsInput(
          () => client.getScan({ deploymentId: "42", scanId: value as string }),
          "scanId",
          message,
        );
      });
    }

    it("checks every numeric parameter of the template (getBranch)", async () => {
      await rejectsInput(
        () => client.getBranch({ deploymentId: "42", projectId: "p", branchId: "3" }),
        "projectId",
      );
      await rejectsInput(
        () => client.getBranch({ deploymentId: "42", projectId: "7", branchId: "main" }),
        "branchId",
      );
      await rejectsInput(
        () => client.getBranch({ deploymentId: "x", projectId: "7", branchId: "3" }),
        "deploymentId",
      );
    });
  });

  describe("opaque ids", () => {
    const bad: [string, string][] = [
      ["", "must not be blank"],
      ["   ", "must not be blank"],
      [" alice", "must not start or end with spaces"],
      ["a\u0085b", "control characters"],
      ["/", 'must not contain "/"'],
      ["a/b", 'must not contain "/"'],
      ["a\\b", 'must not contain "\\\\"'],
      ["a?b", 'must not contain "?"'],
      ["a#b", 'must not contain "#"'],
      ["..", '"."'],
      ["a..b", '"."'],
      [".", '"."'],
      ["a\u0000b", "control characters"],
      ["line\nbreak", "control characters"],
      ["tab\there", "control characters"],
      ["del\u007f", "control characters"],
      ["%2F", 'must not contain "%" (pass the raw id'],
      ["a%2fb", 'must not contain "%"'],
      ["%2e%2e", 'must not contain "%"'],
      ["%5C", 'must not contain "%"'],
      ["%3F", 'must not contain "%"'],
      ["%23", 'must not contain "%"'],
      ["%00", 'must not contain "%"'],
      ["%252F", 'must not contain "%"'],
      ["a%20b", 'must not contain "%"'],
      ["x".repeat(201), "at most 200"],
      ["\uD800", "lone surrogate"],
    ];
    for (const [value, message] of bad) {
      it(`rejects userId ${JSON.stringify(value).slice(0, 40)}`, async () => {
        await rejectsInput(
          () => client.updateUserRole({ deploymentId: "42", userId: value, newRole: "ORG_ROLE_ADMIN" }),
          "userId",
          message,
        );
      });
    }

    it("checks requestId and configId too", async () => {
      await rejectsInput(() => client.getScmApp({ deploymentId: "42", requestId: "../x" }), "requestId");
      await rejectsInput(
        () => client.subscribeScmWebhook({ deploymentId: "42", configId: "a/b" }),
        "configId",
      );
    });
  });

  describe("percent-encoding", () => {
    const cases: [string, string][] = [
      ["user@example.com", "user%40example.com"],
      ["a b", "a%20b"],
      ["üser", "%C3%BCser"],
      ["it's(1)*!", "it%27s%281%29%2A%21"],
      ["a+b=c&d", "a%2Bb%3Dc%26d"],
      ["a;b,c:d", "a%3Bb%2Cc%3Ad"],
      ["~_-.", "~_-."],
    ];
    for (const [raw, encoded] of cases) {
      it(`sends ${JSON.stringify(raw)} as ${encoded}`, async () => {
        server.always({ status: 200, json: { app: SAMPLES.app } });
        await client.getScmApp({ deploymentId: "42", requestId: raw });
        expect(server.requests[0].url).to.equal(`/api/scm/deployments/42/scm_apps/${encoded}`);
        expect(decodeURIComponent(server.requests[0].path.split("/").pop()!)).to.equal(raw);
      });
    }

    it("encodePathSegment is RFC 3986 strict", () => {
      expect(encodePathSegment("!'()*")).to.equal("%21%27%28%29%2A");
    });

    it("buildPath fills every placeholder of every operation", () => {
      for (const [key, spec] of Object.entries(OPERATIONS)) {
        const params = Object.fromEntries(Object.keys(spec.pathParams).map((name) => [name, "12"]));
        const path = buildPath(key as keyof typeof OPERATIONS, params);
        expect(path, key).not.to.include("{");
      }
    });
  });

  describe("other arguments from untyped callers", () => {
    it("rejects a missing or non-object argument", async () => {
      const untyped = client as unknown as Record<string, (args?: unknown) => Promise<unknown>>;
      await rejectsInput(() => untyped.getScan(), "args", "expects an argument object");
      await rejectsInput(() => untyped.getScan("42"), "args");
      await rejectsInput(() => untyped.updateUserRole(null), "args");
      await rejectsInput(() => untyped.listJoinableOrganizations("u-1"), "args");
    });

    it("rejects a newRole outside the enum", async () => {
      for (const newRole of ["ADMIN", "org_role_admin", "", 1, undefined]) {
        await rejectsInput(
          () => client.updateUserRole({ deploymentId: "42", userId: "u-2", newRole: newRole as never }),
          "newRole",
          "one of ORG_ROLE_ADMIN, ORG_ROLE_MEMBER, ORG_ROLE_IMPERSONATOR, ORG_ROLE_READONLY",
        );
      }
    });

    it("validates limit as an integer 1..100", async () => {
      for (const limit of [0, 101, 1.5, -1, Number.NaN, "10"]) {
        await rejectsInput(
          () => client.listNotificationRules({ deploymentId: "42", limit: limit as number }),
          "limit",
          "limit must be an integer between 1 and 100, got",
        );
      }
    });

    it("validates pageSize and maxPages of listAllNotificationRules", async () => {
      await rejectsInput(
        () => client.listAllNotificationRules({ deploymentId: "42", pageSize: 500 }),
        "pageSize",
      );
      await rejectsInput(
        () => client.listAllNotificationRules({ deploymentId: "42", maxPages: 0 }),
        "maxPages",
      );
    });

    it("rejects a deployment id too large to send as an integer in `listNotificationRules`", async () => {
      await rejectsInput(
        () => client.listNotificationRules({ deploymentId: "9999999999999999" }),
        "deploymentId",
        "at most 15 digits (sent as an integer)",
      );
    });

    it("validates cursor and notification filters", async () => {
      await rejectsInput(() => client.listNotificationRules({ deploymentId: "42", cursor: "" }), "cursor");
      await rejectsInput(
        () => client.listNotificationRules({ deploymentId: "42", filters: { is_enabled: "yes" as never } }),
        "filters.is_enabled",
        'filters.is_enabled must be a boolean, got "yes"',
      );
      await rejectsInput(
        () => client.listNotificationRules({ deploymentId: "42", filters: { kind: "x" } as never }),
        "filters.kind",
        "kind is not a field of filters; its fields are channel, is_enabled",
      );
    });

    it("validates provisioning filters, excludeIds and ghaOptions against their schemas", async () => {
      const deploymentId = "42";
      await rejectsInput(
        () => client.provisionWorkflows({ deploymentId, filters: { tagId: 1.5 } }),
        "filters.tagId",
        "filters.tagId must be an integer, got 1.5 (a number)",
      );
      await rejectsInput(
        () => client.provisionWorkflows({ deploymentId, filters: { lastScanSince: "yesterday" } }),
        "filters.lastScanSince",
        "date-time",
      );
      await rejectsInput(
        () => client.provisionWorkflows({ deploymentId, excludeIds: ["1", 2 as never] }),
        "excludeIds[1]",
      );
      await rejectsInput(
        () => client.provisionWorkflows({ deploymentId, excludeIds: "1" as never }),
        "excludeIds",
      );
      await rejectsInput(
        () => client.provisionWorkflows({ deploymentId, ghaOptions: { prEnabled: "true" as never } }),
        "ghaOptions.prEnabled",
      );
    });

    it("validates the SCM app request arguments", async () => {
      await rejectsInput(() => client.completeScmAppRequest({ requestId: "", code: "c" }), "requestId");
      await rejectsInput(() => client.completeScmAppRequest({ requestId: "r", code: "" }), "code");
      await rejectsInput(() => client.completeScmAppRequest({ requestId: "r" } as never), "code");
    });

    it("validates the optional userId of `listJoinableOrganizations`", async () => {
      await rejectsInput(() => client.listJoinableOrganizations({ userId: 7 as never }), "userId");
      await rejectsInput(() => client.listJoinableOrganizations({ userId: "" }), "userId");
    });
  });
});
