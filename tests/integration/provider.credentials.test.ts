/**
 * Credentials at the provider's boundaries, against the emulator and a recording server: one source
 * per connection, named connections, the credential check at preview, client settings from stack
 * config, and the lifecycle edges around credentials (rotation advice, a departed user on destroy, an
 * unknown role on refresh).
 */
import { expect } from "chai";
import {
  scmAppProvider,
  scmWebhookSubscriptionProvider,
  userRoleProvider,
} from "../support/dynamicProviders";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import { ROTATION_ADVICE } from "../../provider/resources/staleCredentials";
import type { EmulatorHandle } from "../../emulator/index";
import * as pulumi from "@pulumi/pulumi";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { CodeSecConnectionError, getCurrentUser, getScan, getNotificationRules } from "../../provider";
import { CodeSecInputError } from "../../client";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";

/** A server that records every request (method, path, Authorization) and answers what it is told. */
class RecordingServer {
  readonly requests: { method: string; path: string; authorization?: string }[] = [];
  answer: (path: string) => { status: number; body: unknown } = () => ({ status: 404, body: {} });
  private server?: http.Server;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.requests.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization });
      req.resume();
      req.on("end", () => {
        const { status, body } = this.answer(req.url!);
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("credentials at the provider's boundaries", () => {
  const emulator = useEmulator();
  const recorder = new RecordingServer();
  let recorderUrl: string;
  const saved = { ...process.env };

  before(async () => {
    recorderUrl = await recorder.start();
  });
  after(async () => {
    await recorder.stop();
  });
  beforeEach(() => {
    recorder.requests.length = 0;
  });
  afterEach(() => {
    pulumi.runtime.setAllConfig({});
    for (const key of ["CODESEC_BASE_URL", "CODESEC_TOKEN"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  describe("a token never travels to another host than its own", () => {
    const roleInputs = (h: ReturnType<typeof emulator>) => ({
      deploymentId: h.deploymentId,
      userId: h.sample.memberUserId,
      role: "ORG_ROLE_MEMBER",
    });
    const partial: [string, object][] = [
      ["only a baseUrl", {}],
      ["an empty token", { token: "" }],
      ["a blank token", { token: "   " }],
    ];

    for (const [name, extra] of partial) {
      it(`a function with ${name} in its connection fails naming connection.token, sending nothing`, async () => {
        const h = emulator();
        // The other organization's credentials, in the environment and in stack config.
        process.env.CODESEC_BASE_URL = h.baseUrl;
        process.env.CODESEC_TOKEN = h.apiToken;
        pulumi.runtime.setAllConfig({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
        const error = await rejectionOf(
          getCurrentUser({}, { connection: { baseUrl: recorderUrl, ...extra } as never }),
        );
        expect(error).to.be.instanceOf(CodeSecConnectionError);
        expect((error as CodeSecConnectionError).field).to.equal("connection.token");
        expect(recorder.requests).to.deep.equal([]);
      });
    }

    it("plain http to another machine is refused by resources and functions alike, naming the opt-in", async () => {
      const h = emulator();
      const remote = { "codesec:baseUrl": "http://codesec.example.com", "codesec:token": h.apiToken };
      const words =
        'codesec:baseUrl: baseUrl "http://codesec.example.com" is plain http to another machine: the token ' +
        "would cross the network unencrypted";
      const optIn =
        "with allowInsecureHttp set to true (client option allowInsecureHttp, stack config codesec:allowInsecureHttp)";
      await configureStack(remote);
      const checked = await rejectionOf(userRoleProvider.check({} as never, roleInputs(h) as never));
      pulumi.runtime.setAllConfig(remote);
      const called = await rejectionOf(getCurrentUser({}));
      for (const error of [checked, called]) {
        expect(error).to.be.instanceOf(CodeSecConnectionError).with.property("field", "codesec:baseUrl");
        expect(error.message).to.include(words).and.include(optIn);
      }
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
      const result = await userRoleProvider.check(
        {} as never,
        {
          ...roleInputs(h),
          connection: { baseUrl: "http://codesec.example.com", token: h.apiToken },
        } as never,
      );
      expect(result.failures?.map((f) => [f.property, (f as { path?: string }).path])).to.deep.equal([
        ["", "connection.baseUrl"],
      ]);
      expect(result.failures?.[0].reason).to.include("is plain http to another machine");
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("codesec:allowInsecureHttp lets a resource use plain http to another machine", async () => {
      const h = emulator();
      await configureStack({
        "codesec:baseUrl": "http://codesec.example.com",
        "codesec:token": h.apiToken,
        "codesec:allowInsecureHttp": "true",
        "codesec:skipCredentialsValidation": "true",
      });
      expect(
        (await userRoleProvider.check({} as never, roleInputs(h) as never)).failures ?? [],
      ).to.deep.equal([]);
    });

    it("a UserRole whose connection.token is blank fails check, sending nothing", async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
      const result = await userRoleProvider.check(
        {} as never,
        {
          deploymentId: h.deploymentId,
          userId: h.sample.memberUserId,
          role: "ORG_ROLE_MEMBER",
          connection: { baseUrl: recorderUrl, token: "   " },
        } as never,
      );
      // Named in the reason only: the engine would print the connection, token and all.
      expect(result.failures?.map((f) => [f.property, (f as { path?: string }).path])).to.deep.equal([
        ["", "connection.token"],
      ]);
      expect(recorder.requests).to.deep.equal([]);
      expect(h.control.requests()).to.deep.equal([]);
    });
  });

  describe("named connections", () => {
    it("a resource names its connection; no token in its inputs, none taken from elsewhere", async () => {
      const h = emulator();
      await configureStack({
        "codesec:baseUrl": recorderUrl,
        "codesec:token": "ambient-token-for-another-host",
        "codesec:connections": JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const inputs = {
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_READONLY" as const,
        connection: "org2",
      };
      expect((await userRoleProvider.check({} as never, inputs)).failures ?? []).to.deep.equal([]);
      await userRoleProvider.create(inputs);
      const role = h.control.state().users.find((u) => u.id === h.sample.memberUserId)!.roles[h.deploymentId];
      expect(role).to.equal("ORG_ROLE_READONLY");
      expect(recorder.requests).to.deep.equal([]);
    });

    it("an object value of codesec:connections (as the engine may hand it over) works too", async () => {
      const h = emulator();
      const values: Record<string, unknown> = {
        "codesec:connections": { org2: { baseUrl: h.baseUrl, token: h.apiToken } },
      };
      await configureStack(values);
      await userRoleProvider.create({
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_READONLY",
        connection: "org2",
      } as never);
      expect(h.control.requests().map((r) => r.operation)).to.deep.equal(["updateUserRole"]);
    });

    it("moving a resource from an object connection to a name drops the stored token, with no call", async () => {
      const h = emulator();
      await configureStack({
        "codesec:connections": JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const olds = {
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_MEMBER",
        connection: { baseUrl: h.baseUrl, token: h.apiToken },
      };
      const news = { ...olds, connection: "org2" };
      const diff = await userRoleProvider.diff(
        `${h.deploymentId}/${h.sample.memberUserId}`,
        olds as never,
        news as never,
      );
      expect(diff.changes).to.equal(true);
      expect(diff.replaces).to.deep.equal([]);
      const updated = await userRoleProvider.update("id", olds as never, news as never);
      expect(updated.outs).to.deep.include({ connection: "org2" });
      expect(JSON.stringify(updated.outs)).not.to.include(h.apiToken);
      const hooks = {
        deploymentId: h.deploymentId,
        configId: h.sample.scmConfigId,
        scmUrl: "u",
        events: ["push"],
      };
      await scmWebhookSubscriptionProvider.update(
        "id",
        { ...hooks, connection: olds.connection },
        { ...hooks, connection: "org2" },
      );
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("an undefined name fails check, listing the names that are defined", async () => {
      const h = emulator();
      await configureStack({
        "codesec:connections": JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const result = await userRoleProvider.check(
        {} as never,
        {
          deploymentId: h.deploymentId,
          userId: h.sample.memberUserId,
          role: "ORG_ROLE_MEMBER",
          connection: "org3",
        } as never,
      );
      expect(result.failures).to.have.length(1);
      expect(result.failures![0]).to.include({ property: "", path: "connection" });
      expect(result.failures![0].reason)
        .to.include("names no connection defined")
        .and.include("defined: org2");
    });

    it("functions take a connection name too", async () => {
      const h = emulator();
      pulumi.runtime.setAllConfig({
        "codesec:connections": JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const me = await getCurrentUser({}, { connection: "org2" });
      expect(me.id).to.equal(h.sample.userId);
    });
  });

  describe("the credential check at preview", () => {
    const inputs = (h: ReturnType<typeof emulator>) =>
      ({ deploymentId: h.deploymentId, userId: h.sample.memberUserId, role: "ORG_ROLE_MEMBER" }) as never;

    it("fails check on a token the platform refuses, with one read and no write", async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": "cst_1001_not_a_real_token" });
      const error = await rejectionOf(userRoleProvider.check({} as never, inputs(h)));
      expect(error).to.be.instanceOf(CodeSecConnectionError);
      expect(error.message)
        .to.include("HTTP 401")
        .and.include("stack config (codesec:baseUrl and codesec:token)")
        .and.include("codesec:skipCredentialsValidation")
        .and.not.include("cst_1001_not_a_real_token");
      expect(h.control.requests().map((r) => `${r.operation}:${r.status}`)).to.deep.equal([
        "getCurrentUser:401",
      ]);
    });

    it("fails check when the platform is unreachable", async () => {
      const h = emulator();
      await configureStack({
        "codesec:baseUrl": "http://127.0.0.1:9",
        "codesec:token": h.apiToken,
        "codesec:retries": "0",
      });
      const error = await rejectionOf(userRoleProvider.check({} as never, inputs(h)));
      expect(error.message).to.include("http://127.0.0.1:9").and.include("could not use the credentials");
    });

    it("reads once per connection however many resources check", async () => {
      const h = emulator();
      // A fresh token: a connection this process has not checked yet.
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: h.sample.userId,
        kind: "apiToken",
      });
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": credential });
      await Promise.all(Array.from({ length: 8 }, () => userRoleProvider.check({} as never, inputs(h))));
      expect(h.control.requests().map((r) => r.operation)).to.deep.equal(["getCurrentUser"]);
    });

    it("is skipped with codesec:skipCredentialsValidation", async () => {
      const h = emulator();
      await configureStack({
        "codesec:baseUrl": h.baseUrl,
        "codesec:token": "cst_1001_not_a_real_token_either",
        "codesec:skipCredentialsValidation": "true",
      });
      expect((await userRoleProvider.check({} as never, inputs(h))).failures ?? []).to.deep.equal([]);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("names a client setting from stack config that the client refuses", async () => {
      const h = emulator();
      for (const [key, value] of [
        ["codesec:timeoutMs", "soon"],
        ["codesec:retries", "99"],
        ["codesec:skipCredentialsValidation", "perhaps"],
        ["codesec:requestsPerSecond", "0"],
        ["codesec:maxInFlight", "1.5"],
        ["codesec:allowInsecureHttp", "yes"],
      ]) {
        await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken, [key]: value });
        const error = await rejectionOf(userRoleProvider.check({} as never, inputs(h)));
        expect(error, key).to.be.instanceOf(CodeSecConnectionError);
        expect((error as CodeSecConnectionError).field).to.equal(key);
      }
      expect(h.control.requests()).to.deep.equal([]);
    });
  });

  describe("lifecycle edges", () => {
    it("destroy with roleOnDestroy tolerates a user who left the organization", async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
      h.control.setUserRole(h.sample.memberUserId, { deploymentId: h.deploymentId, role: null });
      await userRoleProvider.delete(`${h.deploymentId}/${h.sample.memberUserId}`, {
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_ADMIN",
        roleOnDestroy: "ORG_ROLE_MEMBER",
      });
      expect(h.control.requests().map((r) => `${r.operation}:${r.status}`)).to.deep.equal([
        "updateUserRole:404",
      ]);
    });

    it("destroy does not take a 404 page from a wrong base URL for a departed user", async () => {
      recorder.answer = () => ({ status: 404, body: "<html><body>Not Found</body></html>" });
      await configureStack({ "codesec:baseUrl": `${recorderUrl}/wrong-prefix`, "codesec:token": "t" });
      const error = await rejectionOf(
        userRoleProvider.delete("1001/502", {
          deploymentId: "1001",
          userId: "502",
          role: "ORG_ROLE_ADMIN",
          roleOnDestroy: "ORG_ROLE_MEMBER",
        }),
      );
      expect(error.message).to.include("HTTP 404");
    });

    it("destroy still fails on other refusals (a 403 is not a departed user)", async () => {
      const h = emulator();
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        kind: "apiToken",
      });
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": credential });
      const error = await rejectionOf(
        userRoleProvider.delete(`${h.deploymentId}/${h.sample.userId}`, {
          deploymentId: h.deploymentId,
          userId: h.sample.userId,
          role: "ORG_ROLE_ADMIN",
          roleOnDestroy: "ORG_ROLE_MEMBER",
        }),
      );
      expect(error.message).to.include("HTTP 403");
    });

    it("refresh refuses a role outside the enum instead of writing it into state", async () => {
      recorder.answer = () => ({
        status: 200,
        body: {
          user: {
            id: "u-1",
            name: "U",
            email: "u@example.test",
            login: "u",
            authDetails: [],
            orgRole: "ORG_ROLE_OWNER",
          },
        },
      });
      await configureStack({ "codesec:baseUrl": recorderUrl, "codesec:token": "recorder-token" });
      const state = { deploymentId: "1001", userId: "u-1", role: "ORG_ROLE_ADMIN" };
      const error = await rejectionOf(userRoleProvider.read("1001/u-1", state as never));
      expect(error.message).to.include('"ORG_ROLE_OWNER"').and.include("ORG_ROLE_ADMIN, ORG_ROLE_MEMBER");
    });

    it("a 401 during refresh says how to make refresh use a rotated token", async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": "cst_1001_revoked_long_ago" });
      const state = { deploymentId: h.deploymentId, userId: h.sample.userId, role: "ORG_ROLE_ADMIN" };
      const error = await rejectionOf(
        userRoleProvider.read(`${h.deploymentId}/${h.sample.userId}`, state as never),
      );
      expect(error.message).to.include("HTTP 401").and.include("pulumi up").and.include("--run-program");
    });

    describe("the rotation advice on a refresh's or destroy's 401: only for a token the recorded stack config holds", () => {
      const userRolesProvider = dynamicProviderOf("UserRoles") as Required<
        pulumi.dynamic.ResourceProvider<unknown, Record<string, unknown>>
      >;
      // Every step that adds the advice, with the resource's `connection` (undefined: the default one).
      const steps: [string, (h: EmulatorHandle, connection?: unknown) => Promise<unknown>][] = [
        [
          "UserRole refresh",
          (h, connection) =>
            userRoleProvider.read(`${h.deploymentId}/${h.sample.userId}`, {
              deploymentId: h.deploymentId,
              userId: h.sample.userId,
              role: "ORG_ROLE_ADMIN",
              ...(connection === undefined ? {} : { connection }),
            } as never),
        ],
        [
          "UserRole destroy with roleOnDestroy",
          (h, connection) =>
            userRoleProvider.delete(`${h.deploymentId}/${h.sample.memberUserId}`, {
              deploymentId: h.deploymentId,
              userId: h.sample.memberUserId,
              role: "ORG_ROLE_ADMIN",
              roleOnDestroy: "ORG_ROLE_MEMBER",
              ...(connection === undefined ? {} : { connection }),
            } as never),
        ],
        [
          "UserRoles refresh",
          (h, connection) =>
            userRolesProvider.read(`${h.deploymentId}/roles`, {
              deploymentId: h.deploymentId,
              roles: { [h.sample.userId]: "ORG_ROLE_ADMIN" },
              ...(connection === undefined ? {} : { connection }),
            }),
        ],
        [
          "ScmApp refresh",
          (h, connection) =>
            scmAppProvider.read(`${h.deploymentId}/${h.sample.scmAppRequestId}`, {
              deploymentId: h.deploymentId,
              requestId: h.sample.scmAppRequestId,
              ...(connection === undefined ? {} : { connection }),
            } as never),
        ],
      ];
      const revoked = "cst_1001_revoked_long_ago";
      // Where the token comes from, and whether a `pulumi up` would record a new one there.
      const sources: [string, (h: EmulatorHandle) => Promise<unknown>, boolean][] = [
        [
          "stack config codesec:token",
          async (h) => {
            await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": revoked });
            return undefined;
          },
          true,
        ],
        [
          "a named connection in stack config",
          async (h) => {
            await configureStack({
              "codesec:connections": JSON.stringify({ org2: { baseUrl: h.baseUrl, token: revoked } }),
            });
            return "org2";
          },
          true,
        ],
        [
          "the environment (always current)",
          async (h) => {
            await configureStack({});
            process.env.CODESEC_BASE_URL = h.baseUrl;
            process.env.CODESEC_TOKEN = revoked;
            return undefined;
          },
          false,
        ],
        [
          "a deprecated connection object (recorded only with the resource's next update)",
          async (h) => {
            await configureStack({});
            return { baseUrl: h.baseUrl, token: revoked };
          },
          false,
        ],
      ];
      for (const [source, configureSource, advised] of sources) {
        it(`a token from ${source}: ${advised ? "the stack config advice, once" : "no advice"}`, async () => {
          const h = emulator();
          for (const [step, run] of steps) {
            const connection = await configureSource(h);
            const error = await rejectionOf(run(h, connection));
            expect(error.message, step).to.include("HTTP 401");
            if (advised) expect(error.message.split(ROTATION_ADVICE), step).to.have.length(2);
            else expect(error.message, step).not.to.include("If the token was rotated");
          }
        });
      }
    });
  });

  describe("functions called the way untyped programs call them", () => {
    for (const args of [null, undefined, "1001", 42]) {
      it(`getScan(${String(args)}) fails with a typed error naming the argument object`, async () => {
        const h = emulator();
        const error = await rejectionOf(
          getScan(args as never, { connection: { baseUrl: h.baseUrl, token: h.apiToken } }),
        );
        expect(error).to.be.instanceOf(CodeSecInputError);
        expect((error as CodeSecInputError).field).to.equal("args");
        expect(error.message).to.include("getScan expects an argument object { deploymentId, scanId }");
        expect(h.control.requests()).to.deep.equal([]);
      });
    }

    it("a misspelt function option is refused, not dropped (it would read the default organization)", async () => {
      const h = emulator();
      pulumi.runtime.setAllConfig({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
      const error = await rejectionOf(getCurrentUser({}, { conection: "org2" } as never));
      expect(error).to.be.instanceOf(CodeSecInputError);
      expect(error.message).to.include(
        'conection is not an option of getCurrentUser (did you mean "connection"?)',
      );
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a misspelt function argument is refused, not dropped", async () => {
      const h = emulator();
      const error = await rejectionOf(
        getNotificationRules({ deploymentId: h.deploymentId, filter: { is_enabled: true } } as never, {
          connection: { baseUrl: h.baseUrl, token: h.apiToken },
        }),
      );
      expect(error).to.be.instanceOf(CodeSecInputError);
      expect(error.message).to.include(
        'filter is not an argument of getNotificationRules (did you mean "filters"?)',
      );
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("getNotificationRules stops at its page bound against a platform that never stops paging", async () => {
      let page = 0;
      recorder.answer = () => ({
        status: 200,
        body: { notification_rules: [], cursor: { token: `c${++page}` } },
      });
      const error = await rejectionOf(
        getNotificationRules({ deploymentId: "1001" }, { connection: { baseUrl: recorderUrl, token: "t" } }),
      );
      expect(error.message).to.include("more than maxPages (1000) pages");
      expect(recorder.requests).to.have.length(1000);
      recorder.requests.length = 0;
      await rejectionOf(
        getNotificationRules(
          { deploymentId: "1001", maxPages: 3 },
          { connection: { baseUrl: recorderUrl, token: "t" } },
        ),
      );
      expect(recorder.requests).to.have.length(3);
    });
  });
});
