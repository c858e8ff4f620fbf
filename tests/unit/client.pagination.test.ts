/** The cursors of `listNotificationRules`: reading them tolerantly and following them safely. */
import { expect } from "chai";
import { CodeSecApiError, CodeSecResponseError, type CodeSecClient } from "../../client";
import { FakeServer, SAMPLES, rejection, type RecordedRequest } from "../support/fakeServer";

type Body = { options?: { optionalLimit?: number; cursor?: { token: string } } };

function tokenOf(req: RecordedRequest): string | undefined {
  return (req.json as Body).options?.cursor?.token;
}

describe("CodeSecClient notification-rule paging", () => {
  let server: FakeServer;
  let client: CodeSecClient;
  beforeEach(async () => {
    server = await FakeServer.start();
    client = server.client();
  });
  afterEach(async () => server.close());

  describe("one page: nextCursor", () => {
    const variants: [string, Record<string, unknown>, string | undefined][] = [
      ["cursor.token", { cursor: { token: "t1" } }, "t1"],
      ["next_cursor as a string", { next_cursor: "t2" }, "t2"],
      ["next_cursor as an object", { next_cursor: { token: "t3" } }, "t3"],
      ["nextCursor as a string", { nextCursor: "t4" }, "t4"],
      ["nextCursor as an object", { nextCursor: { token: "t5" } }, "t5"],
      ["cursor as a string", { cursor: "t6" }, "t6"],
      ["no cursor", {}, undefined],
      ["an empty cursor token", { cursor: { token: "" } }, undefined],
      ["a null cursor", { cursor: null, next_cursor: null }, undefined],
      ["an empty string", { nextCursor: "" }, undefined],
    ];
    for (const [name, extra, expected] of variants) {
      it(`reads ${name}`, async () => {
        server.always({ status: 200, json: { notification_rules: [SAMPLES.rule(1)], ...extra } });
        const page = await client.listNotificationRules({ deploymentId: "42" });
        expect(page.nextCursor).to.equal(expected);
        expect("nextCursor" in page).to.equal(expected !== undefined);
      });
    }

    it("rejects a cursor of the wrong type, naming it", async () => {
      server.always({ status: 200, json: { notification_rules: [], cursor: { token: 5 } } });
      const error = await rejection(
        client.listNotificationRules({ deploymentId: "42" }),
        CodeSecResponseError,
      );
      expect(error.fieldPath).to.equal("cursor.token");
      server.always({ status: 200, json: { notification_rules: [], nextCursor: 5 } });
      const other = await rejection(
        client.listNotificationRules({ deploymentId: "42" }),
        CodeSecResponseError,
      );
      expect(other.fieldPath).to.equal("nextCursor");
    });
  });

  describe("one page's status", () => {
    it("resolves with the status, whatever the body holds, sending the one-page request", async () => {
      server.always({ status: 200, json: { notification_rules: [{ id: "r1" }] } });
      expect(await client.listNotificationRulesStatus({ deploymentId: "42", limit: 1 })).to.equal(200);
      server.always({ status: 200, text: "not json" });
      expect(await client.listNotificationRulesStatus({ deploymentId: "42", limit: 1 })).to.equal(200);
      expect(server.requests[0].path).to.equal("/api/agent/deployments/42/actions/list");
      expect(server.requests[0].json).to.deep.equal({ deploymentId: 42, options: { optionalLimit: 1 } });
    });

    it("throws the platform's refusal as the client's error", async () => {
      server.always({ status: 403, json: { code: "PERMISSION_DENIED", message: "no" } });
      const error = await rejection(
        client.listNotificationRulesStatus({ deploymentId: "42", limit: 1 }),
        CodeSecApiError,
      );
      expect(error.status).to.equal(403);
    });
  });

  describe("all pages", () => {
    it("follows cursors until the last page, with pageSize as optionalLimit", async () => {
      server.respond((req) => {
        const token = tokenOf(req);
        if (token === undefined)
          return {
            json: { notification_rules: [SAMPLES.rule(1), SAMPLES.rule(2)], cursor: { token: "p2" } },
          };
        if (token === "p2") return { json: { notification_rules: [SAMPLES.rule(3)], next_cursor: "p3" } };
        if (token === "p3")
          return { json: { notification_rules: [SAMPLES.rule(4)], nextCursor: { token: "" } } };
        return { status: 400, json: { message: "bad cursor" } };
      });
      const rules = await client.listAllNotificationRules({
        deploymentId: "42",
        pageSize: 2,
        filters: { is_enabled: true },
      });
      expect(rules.map((rule) => rule.id)).to.deep.equal([1, 2, 3, 4]);
      expect(server.requests.map(tokenOf)).to.deep.equal([undefined, "p2", "p3"]);
      for (const req of server.requests) {
        expect(req.json).to.deep.include({ deploymentId: 42, filters: { is_enabled: true } });
        expect((req.json as Body).options?.optionalLimit).to.equal(2);
      }
    });

    it("defaults pageSize to 100", async () => {
      server.always({ status: 200, json: { notification_rules: [] } });
      expect(await client.listAllNotificationRules({ deploymentId: "42" })).to.deep.equal([]);
      expect((server.requests[0].json as Body).options?.optionalLimit).to.equal(100);
    });

    it("stops with an error when the platform repeats a cursor", async () => {
      server.respond((req) => ({
        json: { notification_rules: [SAMPLES.rule(1)], cursor: { token: tokenOf(req) === "a" ? "b" : "a" } },
      }));
      const error = await rejection(
        client.listAllNotificationRules({ deploymentId: "42" }),
        CodeSecResponseError,
      );
      expect(error.message).to.include("cursor already seen");
      expect(error.fieldPath).to.equal("cursor");
      expect(server.requests.map(tokenOf)).to.deep.equal([undefined, "a", "b"]);
    });

    it("stops when the same cursor comes straight back", async () => {
      server.always({ status: 200, json: { notification_rules: [], cursor: { token: "same" } } });
      await rejection(client.listAllNotificationRules({ deploymentId: "42" }), CodeSecResponseError);
      expect(server.requests).to.have.length(2);
    });

    it("stops after maxPages", async () => {
      server.respond((_req, index) => ({
        json: { notification_rules: [SAMPLES.rule(index)], cursor: { token: `t${index}` } },
      }));
      const error = await rejection(
        client.listAllNotificationRules({ deploymentId: "42", maxPages: 3 }),
        CodeSecResponseError,
      );
      expect(error.message).to.include("maxPages (3)");
      expect(server.requests).to.have.length(3);
    });

    it("propagates a failing page", async () => {
      server.sequence(
        { json: { notification_rules: [SAMPLES.rule(1)], cursor: { token: "p2" } } },
        { status: 404, json: { error: { code: "NOT_FOUND", message: "deployment not found" } } },
      );
      const error = await rejection(client.listAllNotificationRules({ deploymentId: "42" }), CodeSecApiError);
      expect(error).to.include({ status: 404, operation: "listNotificationRules" });
    });
  });
});
