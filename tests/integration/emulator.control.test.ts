/** The control surface (`/__emulator/...` and `handle.control`). */
import { expect } from "chai";
import type { RequestLogEntry } from "../../emulator/index";
import { callApi, callControl, errorOf, useEmulator } from "../support/emulator";

describe("emulator control surface", () => {
  const emulator = useEmulator();
  const control = (method: string, path: string, body?: unknown) =>
    callControl(emulator(), method, path, body);
  const scanPath = "/api/v2/deployments/1001/scans/3001";

  describe("faults", () => {
    it("an error status with Retry-After for the next N matching requests, then normal answers", async () => {
      const armed = await control("POST", "/faults", {
        operation: "getScan",
        status: 429,
        retryAfter: "2",
        count: 2,
      });
      expect(armed.status).to.equal(201);
      for (let i = 0; i < 2; i += 1) {
        const res = await callApi(emulator(), "GET", scanPath);
        expect(res.status).to.equal(429);
        expect(res.headers.get("retry-after")).to.equal("2");
        expect(errorOf(res).code).to.equal("RESOURCE_EXHAUSTED");
      }
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(200);
    });

    it("faults come before authentication, as a gateway's would", async () => {
      await control("POST", "/faults", { operation: "getScan", status: 503 });
      expect((await callApi(emulator(), "GET", scanPath, { credential: null })).status).to.equal(503);
    });

    it("matches by method and path, and only that", async () => {
      await control("POST", "/faults", {
        method: "GET",
        path: "/api/auth/users/current",
        status: 502,
        code: "BAD_GATEWAY",
      });
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(200);
      const res = await callApi(emulator(), "GET", "/api/auth/users/current");
      expect(res.status).to.equal(502);
      expect(errorOf(res).code).to.equal("BAD_GATEWAY");
    });

    it("adds latency, then answers normally", async () => {
      await control("POST", "/faults", { operation: "getScan", latencyMs: 150 });
      const started = Date.now();
      const res = await callApi(emulator(), "GET", scanPath);
      expect(res.status).to.equal(200);
      expect(Date.now() - started).to.be.at.least(140);
      expect(emulator().control.requests().at(-1)?.fault).to.equal("latency");
    });

    it("drops the connection before any response", async () => {
      await control("POST", "/faults", { operation: "getScan", drop: true });
      let failure: unknown;
      try {
        await fetch(`${emulator().baseUrl}${scanPath}`, {
          headers: { authorization: `Bearer ${emulator().apiToken}` },
        });
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Error);
      expect(emulator().control.requests().at(-1)).to.include({
        status: 0,
        fault: "drop",
        operation: "getScan",
      });
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(200);
    });

    it("answers 200 with a malformed JSON body", async () => {
      await control("POST", "/faults", { operation: "getScan", malformed: true });
      const res = await callApi(emulator(), "GET", scanPath);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.match(/^application\/json/);
      expect(() => {
        JSON.parse(res.text);
      }).to.throw();
      const logged = emulator().control.requests();
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include({ status: 200, fault: "malformed" });
    });

    it("lists and clears faults; refuses invalid specs with 400", async () => {
      await control("POST", "/faults", { operation: "getBranch", status: 500, count: 5 });
      const listed = await control("GET", "/faults");
      expect((listed.json as { faults: Array<{ remaining: number }> }).faults[0]?.remaining).to.equal(5);
      await control("DELETE", "/faults");
      expect((await control("GET", "/faults")).json).to.deep.equal({ faults: [] });
      const bad = await control("POST", "/faults", { operation: "getWidget", status: 500 });
      expect(bad.status).to.equal(400);
      expect(errorOf(bad).message).to.match(/^body\.operation must be one of updateUserRole/);
      expect((await control("POST", "/faults", { status: 200 })).status).to.equal(400);
      expect((await control("POST", "/faults", { operation: "getScan" })).status).to.equal(400);
    });
  });

  describe("request log", () => {
    it("records method, path, status and operation, never a credential or query string; control calls are not logged", async () => {
      await callApi(emulator(), "GET", scanPath);
      await callApi(emulator(), "GET", "/api/auth/users/current/deployments/joinable?userId=501", {
        credential: emulator().jwt,
      });
      await callApi(emulator(), "PUT", "/api/scm/app_request_complete", {
        body: { requestId: emulator().sample.scmAppRequestId, code: emulator().sample.scmAppCode },
      });
      await callApi(emulator(), "GET", "/nowhere");
      const res = await control("GET", "/requests");
      const entries = (res.json as { requests: RequestLogEntry[] }).requests;
      expect(entries.map((e) => [e.method, e.path, e.status, e.operation])).to.deep.equal([
        ["GET", scanPath, 200, "getScan"],
        ["GET", "/api/auth/users/current/deployments/joinable", 200, "listJoinableOrganizations"],
        ["PUT", "/api/scm/app_request_complete", 200, "completeScmAppRequest"],
        ["GET", "/nowhere", 404, null],
      ]);
      for (const entry of entries) expect(Number.isNaN(Date.parse(entry.at))).to.equal(false);
      const text = res.text;
      for (const secret of [emulator().apiToken, emulator().jwt, emulator().sample.scmAppCode]) {
        expect(text).not.to.include(secret);
      }
      expect(text).not.to.match(/authorization/i);
      await control("DELETE", "/requests");
      expect((await control("GET", "/requests")).json).to.deep.equal({ requests: [] });
    });
  });

  describe("out-of-band edits", () => {
    it("an edited SCM app is what `getScmApp` reads", async () => {
      const edit = await control("PATCH", "/scm-apps/apprq-1001-done", {
        slug: "renamed-in-ui",
        codeAccess: false,
      });
      expect(edit.status).to.equal(200);
      const res = await callApi(emulator(), "GET", "/api/scm/deployments/1001/scm_apps/apprq-1001-done");
      expect((res.json as { app: Record<string, unknown> }).app).to.include({
        slug: "renamed-in-ui",
        codeAccess: false,
      });
      expect((await control("PATCH", "/scm-apps/nope", { slug: "x" })).status).to.equal(404);
      expect((await control("PATCH", "/scm-apps/apprq-1001-done", { requestId: "x" })).status).to.equal(400);
    });

    it("a role set in the UI is what `getCurrentUser` reports", async () => {
      const res = await control("PUT", "/users/501/role", {
        deploymentId: "1001",
        role: "ORG_ROLE_READONLY",
      });
      expect(res.json).to.deep.equal({ userId: "501", deploymentId: "1001", role: "ORG_ROLE_READONLY" });
      const me = await callApi(emulator(), "GET", "/api/auth/users/current");
      expect((me.json as { user: { orgRole: string } }).user.orgRole).to.equal("ORG_ROLE_READONLY");
      expect(
        (await control("PUT", "/users/999/role", { deploymentId: "1001", role: "ORG_ROLE_ADMIN" })).status,
      ).to.equal(404);
      expect(
        (await control("PUT", "/users/501/role", { deploymentId: "1001", role: "BOSS" })).status,
      ).to.equal(400);
    });

    it("a new pending SCM app request can be completed with its code", async () => {
      const created = await control("POST", "/scm-app-requests", { deploymentId: "1001" });
      expect(created.status).to.equal(201);
      const { requestId, code } = created.json as { requestId: string; code: string };
      expect(
        (await callApi(emulator(), "GET", `/api/scm/deployments/1001/scm_apps/${requestId}`)).status,
      ).to.equal(404);
      const done = await callApi(emulator(), "PUT", "/api/scm/app_request_complete", {
        body: { requestId, code },
      });
      expect(done.status).to.equal(200);
      expect(
        (await callApi(emulator(), "GET", `/api/scm/deployments/1001/scm_apps/${requestId}`)).status,
      ).to.equal(200);
      expect((await control("POST", "/scm-app-requests", { deploymentId: "777" })).status).to.equal(404);
    });

    it("mints credentials for tests", async () => {
      const jwt = await control("POST", "/credentials", { deploymentId: "2002", userId: "601", kind: "jwt" });
      expect(jwt.status).to.equal(201);
      const { credential } = jwt.json as { credential: string };
      const me = await callApi(emulator(), "GET", "/api/auth/users/current", { credential });
      expect((me.json as { user: { id: string } }).user.id).to.equal("601");
      const token = await control("POST", "/credentials", {
        deploymentId: "1001",
        userId: "502",
        kind: "apiToken",
      });
      const asMember = await callApi(emulator(), "GET", "/api/auth/users/current", {
        credential: (token.json as { credential: string }).credential,
      });
      expect((asMember.json as { user: { orgRole: string } }).user.orgRole).to.equal("ORG_ROLE_MEMBER");
      expect(
        (await control("POST", "/credentials", { deploymentId: "1001", userId: "999", kind: "jwt" })).status,
      ).to.equal(404);
      expect(
        (await control("POST", "/credentials", { deploymentId: "1001", userId: "501", kind: "password" }))
          .status,
      ).to.equal(400);
    });
  });

  describe("credential revocation", () => {
    const revoke = (credential: unknown) => control("POST", "/credentials/revoke", { credential });

    it("a revoked API token answers 401 saying so, from the next request on", async () => {
      const minted = await emulator().control.mintCredential({
        deploymentId: "1001",
        userId: "502",
        kind: "apiToken",
      });
      const token = minted.credential;
      expect((await callApi(emulator(), "GET", scanPath, { credential: token })).status).to.equal(200);
      const res = await revoke(token);
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ revoked: true });
      expect((res.json as { tokenId: string }).tokenId).to.match(/^tok-minted-/);
      const refused = await callApi(emulator(), "GET", scanPath, { credential: token });
      expect(refused.status).to.equal(401);
      expect(errorOf(refused).message).to.match(/revoked/);
      expect(refused.headers.get("www-authenticate")).to.match(/invalid_token/);
      // Other credentials of the same user and deployment are not affected.
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(200);
      // Revoking again changes nothing and still succeeds.
      expect((await revoke(token)).status).to.equal(200);
    });

    it("revokes a fixture token in process too; reset brings it back", async () => {
      expect(emulator().control.revokeCredential(emulator().apiToken)).to.deep.equal({
        revoked: true,
        tokenId: "tok-1001-admin",
      });
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(401);
      const state = emulator().control.state();
      expect(state.apiTokens.find((t) => t.id === "tok-1001-admin")?.revokedAt).to.be.a("string");
      emulator().control.reset();
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(200);
    });

    it("refuses a JWT (they expire) and an unknown value, without repeating the value", async () => {
      const jwt = await revoke(emulator().jwt);
      expect(jwt.status).to.equal(400);
      expect(errorOf(jwt).message).to.match(/JWTs expire/);
      expect(jwt.text).not.to.include(emulator().jwt);
      expect((await callApi(emulator(), "GET", scanPath, { credential: emulator().jwt })).status).to.equal(
        200,
      );
      const unknownValue = "cst_1001_never_issued_0000000000";
      const unknown = await revoke(unknownValue);
      expect(unknown.status).to.equal(404);
      expect(unknown.text).not.to.include(unknownValue);
      expect((await revoke("")).status).to.equal(400);
      expect((await control("POST", "/credentials/revoke", { token: "x" })).status).to.equal(400);
      // Control calls are not in the request log, so the value is not there either.
      expect(JSON.stringify(emulator().control.requests())).not.to.include(unknownValue);
    });
  });

  describe("in-process arguments", () => {
    it("are refused with the API's wording (field, expected, found) and never echo a credential", () => {
      const handle = emulator();
      expect(() => handle.control.setUserRole("502", { deploymentId: "x1", role: null }))
        .to.throw()
        .with.property("message")
        .that.equals('invalid edit: deploymentId must be a numeric id (digits only), got "x1"');
      const secret = "not-a-token-but-secret";
      const revoke = () => handle.control.revokeCredential({ nope: secret } as unknown as string);
      expect(revoke).to.throw(/invalid revocation: credential must be a string/);
      try {
        revoke();
      } catch (error) {
        expect((error as Error).message).not.to.include(secret);
      }
    });
  });

  describe("index", () => {
    it("GET /__emulator/ lists every control route with its method, path and purpose", async () => {
      const res = await control("GET", "/");
      expect(res.status).to.equal(200);
      const { routes } = res.json as { routes: Array<{ method: string; path: string; summary: string }> };
      expect(routes).to.deep.include({
        method: "GET",
        path: "/__emulator/state",
        summary: "the whole state without secrets (no token values, one-time codes or signing key)",
      });
      expect(routes.map((r) => `${r.method} ${r.path}`)).to.include.members([
        "GET /__emulator/",
        "POST /__emulator/reset",
        "PATCH /__emulator/scm-apps/{requestId}",
        "PUT /__emulator/users/{userId}/role",
        "POST /__emulator/credentials/revoke",
      ]);
      for (const route of routes)
        expect(route.summary, route.path).to.be.a("string").with.length.greaterThan(0);
      // Every listed route is registered: none answers "no operation matches" (404 from the router).
      for (const route of routes) {
        const path = route.path.replace("/__emulator", "").replace(/\{[^}]+\}/g, "nobody");
        const answer = await control(route.method, path);
        expect(answer.text, `${route.method} ${route.path}`).not.to.include("no operation matches");
      }
    });
  });

  describe("state and reset", () => {
    it("GET /__emulator/state has no secret", async () => {
      const res = await control("GET", "/state");
      expect(res.status).to.equal(200);
      const state = res.json as {
        apiTokens: Array<Record<string, unknown>>;
        scmAppRequests: Array<Record<string, unknown>>;
      };
      expect(state.apiTokens.length).to.be.greaterThan(0);
      for (const token of state.apiTokens) expect(token).not.to.have.property("value");
      for (const request of state.scmAppRequests) expect(request).not.to.have.property("code");
      expect(res.text).not.to.include(emulator().apiToken);
      expect(res.text).not.to.include(emulator().sample.scmAppCode);
      expect(res.text).not.to.match(/signingKey/);
    });

    it("reset restores the fixtures, and the handle's credentials stay valid", async () => {
      await callApi(emulator(), "PATCH", "/api/agent/deployments/1001/users/502/roles", {
        body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" },
      });
      await control("POST", "/faults", { operation: "getScan", status: 500 });
      const reset = await control("POST", "/reset");
      expect(reset.json).to.deep.equal({ reset: true });
      const state = (await control("GET", "/state")).json as {
        users: Array<{ id: string; roles: Record<string, string> }>;
      };
      expect(state.users.find((u) => u.id === "502")?.roles["1001"]).to.equal("ORG_ROLE_MEMBER");
      expect((await callApi(emulator(), "GET", scanPath)).status).to.equal(200);
      expect((await callApi(emulator(), "GET", scanPath, { credential: emulator().jwt })).status).to.equal(
        200,
      );
    });
  });
});
