/** Authentication and access rules over HTTP. */
import { expect } from "chai";
import { defaultFixtures } from "../../emulator/defaultFixtures";
import { callApi, errorOf, useEmulator } from "../support/emulator";

const TOKENS = Object.fromEntries(defaultFixtures().apiTokens.map((t) => [t.id, t.value]));

describe("emulator authentication over HTTP", () => {
  const emulator = useEmulator();
  const roleBody = (userId: string, newRole: string) => ({ deploymentId: "1001", userId, newRole });

  it("every operation needs a bearer credential: 401 with WWW-Authenticate", async () => {
    const paths: Array<[string, string, unknown?]> = [
      ["PATCH", "/api/agent/deployments/1001/users/502/roles", roleBody("502", "ORG_ROLE_MEMBER")],
      ["POST", "/api/agent/deployments/1001/repos/_provision", { deploymentId: "1001" }],
      ["PUT", "/api/scm/app_request_complete", { requestId: "x", code: "y" }],
      ["GET", "/api/scm/deployments/1001/scm_apps/apprq-1001-done"],
      ["PUT", "/api/scm/deployments/1001/subscriptions/scmcfg-1001-a"],
      ["GET", "/api/v2/deployments/1001/scans/3001"],
      ["GET", "/api/v2/deployments/1001/projects/7001/branches/9101"],
      ["GET", "/api/auth/users/current"],
      ["GET", "/api/auth/users/current/deployments/joinable"],
      ["POST", "/api/agent/deployments/1001/actions/list", { deploymentId: 1001 }],
    ];
    for (const [method, path, body] of paths) {
      const res = await callApi(emulator(), method, path, { credential: null, body });
      expect(res.status, `${method} ${path}`).to.equal(401);
      expect(errorOf(res).code).to.equal("UNAUTHENTICATED");
      expect(res.headers.get("www-authenticate")).to.match(/^Bearer realm="codesec"/);
    }
  });

  it("authentication comes before validation: a bad body without credential is 401", async () => {
    const res = await callApi(emulator(), "POST", "/api/agent/deployments/1001/actions/list", {
      credential: null,
      rawBody: "{oops",
    });
    expect(res.status).to.equal(401);
  });

  it("401 for an unknown token, an expired token, a tampered or expired JWT", async () => {
    const expiredJwt = (
      await emulator().control.mintCredential({
        deploymentId: "1001",
        userId: "501",
        kind: "jwt",
        expiresInSeconds: -5,
      })
    ).credential;
    const [h, p, s] = emulator().jwt.split(".") as [string, string, string];
    const tampered = `${h}.${p.slice(0, -2)}${p.slice(-2) === "AA" ? "BB" : "AA"}.${s}`;
    for (const credential of [
      "cst_unknown_token_12345678",
      TOKENS["tok-1001-expired"],
      expiredJwt,
      tampered,
    ]) {
      const res = await callApi(emulator(), "GET", "/api/auth/users/current", { credential });
      expect(res.status, credential.slice(0, 12)).to.equal(401);
      expect(res.headers.get("www-authenticate")).to.include('error="invalid_token"');
    }
  });

  it("403 for a token without the Web API permission or restricted to scopes, saying which", async () => {
    const noWeb = await callApi(emulator(), "GET", "/api/auth/users/current", {
      credential: TOKENS["tok-1001-noweb"],
    });
    expect(noWeb.status).to.equal(403);
    expect(errorOf(noWeb).message).to.match(/Web API permission/);
    const scoped = await callApi(emulator(), "GET", "/api/auth/users/current", {
      credential: TOKENS["tok-1001-scoped"],
    });
    expect(scoped.status).to.equal(403);
    expect(errorOf(scoped).message).to.match(/limited scopes/);
  });

  it("minted tokens follow the same flags", async () => {
    const { credential } = await emulator().control.mintCredential({
      deploymentId: "1001",
      userId: "502",
      kind: "apiToken",
      scoped: true,
    });
    expect((await callApi(emulator(), "GET", "/api/auth/users/current", { credential })).status).to.equal(
      403,
    );
  });

  it("`listJoinableOrganizations` refuses API tokens and another user's id", async () => {
    const withToken = await callApi(emulator(), "GET", "/api/auth/users/current/deployments/joinable");
    expect(withToken.status).to.equal(403);
    expect(errorOf(withToken).message).to.match(
      /listJoinableOrganizations \(GET \/api\/auth\/users\/current\/deployments\/joinable\) requires a user JWT/,
    );
    const other = await callApi(
      emulator(),
      "GET",
      "/api/auth/users/current/deployments/joinable?userId=601",
      {
        credential: emulator().jwt,
      },
    );
    expect(other.status).to.equal(403);
  });

  it("a credential reaches only its own deployment (403, whether the other deployment exists or not)", async () => {
    for (const deploymentId of ["2002", "987654"]) {
      const res = await callApi(emulator(), "GET", `/api/v2/deployments/${deploymentId}/scans/3201`);
      expect(res.status).to.equal(403);
      expect(errorOf(res).message).to.equal(
        `this credential belongs to deployment 1001 and cannot access deployment ${deploymentId}`,
      );
    }
    const globex = await callApi(emulator(), "GET", "/api/v2/deployments/2002/scans/3201", {
      credential: TOKENS["tok-2002-admin"],
    });
    expect(globex.status).to.equal(200);
    const crossRole = await callApi(emulator(), "PATCH", "/api/agent/deployments/2002/users/601/roles", {
      body: { deploymentId: "2002", userId: "601", newRole: "ORG_ROLE_MEMBER" },
    });
    expect(crossRole.status).to.equal(403);
  });

  it("readonly, member and impersonator can read but not write", async () => {
    const impersonator = (
      await emulator().control.mintCredential({ deploymentId: "1001", userId: "504", kind: "jwt" })
    ).credential;
    for (const credential of [TOKENS["tok-1001-readonly"], TOKENS["tok-1001-member"], impersonator]) {
      const read = await callApi(emulator(), "GET", "/api/v2/deployments/1001/scans/3001", { credential });
      expect(read.status).to.equal(200);
      const writes: Array<[string, string, unknown?]> = [
        ["PATCH", "/api/agent/deployments/1001/users/502/roles", roleBody("502", "ORG_ROLE_MEMBER")],
        ["POST", "/api/agent/deployments/1001/repos/_provision", { deploymentId: "1001" }],
        ["PUT", "/api/scm/app_request_complete", { requestId: "apprq-1001-a", code: "otc-1001-a-7Hq2Zp9L" }],
        ["PUT", "/api/scm/deployments/1001/subscriptions/scmcfg-1001-a"],
      ];
      for (const [method, path, body] of writes) {
        const res = await callApi(emulator(), method, path, { credential, body });
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(errorOf(res).message).to.match(/needs ORG_ROLE_ADMIN/);
      }
    }
  });

  it("refuses to demote the last admin (409), allows it once there is another", async () => {
    const path = "/api/agent/deployments/1001/users/501/roles";
    const last = await callApi(emulator(), "PATCH", path, { body: roleBody("501", "ORG_ROLE_MEMBER") });
    expect(last.status).to.equal(409);
    expect(errorOf(last).code).to.equal("FAILED_PRECONDITION");
    expect(errorOf(last).message).to.match(/last ORG_ROLE_ADMIN/);
    const promote = await callApi(emulator(), "PATCH", "/api/agent/deployments/1001/users/502/roles", {
      body: roleBody("502", "ORG_ROLE_ADMIN"),
    });
    expect(promote.status).to.equal(200);
    const demote = await callApi(emulator(), "PATCH", path, { body: roleBody("501", "ORG_ROLE_MEMBER") });
    expect(demote.status).to.equal(200);
    // The admin's token now carries a member's rights.
    const afterwards = await callApi(emulator(), "PATCH", "/api/agent/deployments/1001/users/503/roles", {
      body: roleBody("503", "ORG_ROLE_MEMBER"),
    });
    expect(afterwards.status).to.equal(403);
    const me = await callApi(emulator(), "GET", "/api/auth/users/current");
    expect((me.json as { user: { orgRole: string } }).user.orgRole).to.equal("ORG_ROLE_MEMBER");
  });

  it("a user removed from the deployment is refused with 403", async () => {
    emulator().control.setUserRole("503", { deploymentId: "1001", role: null });
    const res = await callApi(emulator(), "GET", "/api/auth/users/current", {
      credential: TOKENS["tok-1001-readonly"],
    });
    expect(res.status).to.equal(403);
    expect(errorOf(res).message).to.equal("user 503 is not a member of deployment 1001");
  });
});
