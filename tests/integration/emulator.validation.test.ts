/** Request validation and error replies over HTTP. */
import { expect } from "chai";
import { callApi, errorOf, useEmulator } from "../support/emulator";

describe("emulator request validation and error replies", () => {
  const emulator = useEmulator();
  const rolePath = "/api/agent/deployments/1001/users/502/roles";
  const listPath = "/api/agent/deployments/1001/actions/list";

  it("every answer carries x-request-id; an error body repeats it", async () => {
    const ok = await callApi(emulator(), "GET", "/api/auth/users/current");
    expect(ok.headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
    const bad = await callApi(emulator(), "GET", "/api/v2/deployments/1001/scans/x");
    expect(errorOf(bad).requestId).to.equal(bad.headers.get("x-request-id"));
    expect(bad.headers.get("content-type")).to.match(/^application\/json/);
  });

  it("a client-sent x-request-id is not trusted", async () => {
    const res = await callApi(emulator(), "GET", "/api/auth/users/current", {
      headers: { "x-request-id": "mine" },
    });
    expect(res.headers.get("x-request-id")).not.to.equal("mine");
  });

  it("applies the one date-time rule of the client and check: real calendar dates only", async () => {
    const provision = "/api/agent/deployments/1001/repos/_provision";
    const send = (lastScanSince: string) =>
      callApi(emulator(), "POST", provision, { body: { deploymentId: "1001", filters: { lastScanSince } } });
    for (const bad of [
      "2025-02-30T00:00:00Z",
      "2025-02-29T00:00:00Z",
      "2026-01-02T24:00:00Z",
      "2026-01-02",
    ]) {
      const res = await send(bad);
      expect(res.status, bad).to.equal(400);
      expect(errorOf(res).message, bad).to.include("lastScanSince");
    }
    for (const good of ["2024-02-29T00:00:00Z", "2026-01-02T03:04:05.5+05:30"]) {
      expect((await send(good)).status, good).to.equal(200);
    }
  });

  it("400 on malformed JSON", async () => {
    const res = await callApi(emulator(), "POST", listPath, { rawBody: '{"deploymentId": 1001,' });
    expect(res.status).to.equal(400);
    expect(errorOf(res).code).to.equal("INVALID_ARGUMENT");
    expect(errorOf(res).message).to.match(/^request body is not valid JSON/);
  });

  it("400 on a missing body, a non-object body and wrong JSON types", async () => {
    expect(errorOf(await callApi(emulator(), "POST", listPath)).message).to.equal(
      "body is required (an object)",
    );
    expect(errorOf(await callApi(emulator(), "POST", listPath, { rawBody: "null" })).message).to.equal(
      "body is required (an object)",
    );
    expect(errorOf(await callApi(emulator(), "POST", listPath, { body: [1001] })).message).to.equal(
      "body must be an object, got an array",
    );
    const wrongType = await callApi(emulator(), "POST", listPath, {
      body: { deploymentId: 1001, options: { optionalLimit: "5" } },
    });
    expect(wrongType.status).to.equal(400);
    expect(errorOf(wrongType).message).to.equal(
      'body.options.optionalLimit must be an integer between 1 and 100, got "5"',
    );
    const wrongBool = await callApi(emulator(), "POST", "/api/agent/deployments/1001/repos/_provision", {
      body: { deploymentId: "1001", filters: { archived: "false" } },
    });
    expect(errorOf(wrongBool).message).to.equal('body.filters.archived must be a boolean, got "false"');
  });

  it("400 naming a missing field, an out-of-range value and a value outside an enumeration", async () => {
    const missing = await callApi(emulator(), "PATCH", rolePath, {
      body: { deploymentId: "1001", userId: "502" },
    });
    expect(errorOf(missing).message).to.match(/^body\.newRole is required \(one of ORG_ROLE_ADMIN, /);
    const range = await callApi(emulator(), "POST", listPath, {
      body: { deploymentId: 1001, options: { optionalLimit: 500 } },
    });
    expect(errorOf(range).message).to.equal(
      "body.options.optionalLimit must be an integer between 1 and 100, got 500 (an integer)",
    );
    const role = await callApi(emulator(), "PATCH", rolePath, {
      body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_OWNER" },
    });
    expect(errorOf(role).message).to.match(
      /^body\.newRole must be one of ORG_ROLE_ADMIN, .*, got "ORG_ROLE_OWNER"$/,
    );
  });

  it("400 on unknown body fields, naming them and the known ones", async () => {
    const res = await callApi(emulator(), "PATCH", rolePath, {
      body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_MEMBER", role: "x" },
    });
    expect(res.status).to.equal(400);
    expect(errorOf(res).message).to.equal(
      "role is not a field of body; its fields are deploymentId, userId, newRole",
    );
    const typo = await callApi(emulator(), "POST", listPath, {
      body: { deploymentId: 1001, option: { optionalLimit: 5 } },
    });
    expect(errorOf(typo).message).to.equal(
      'option is not a field of body (did you mean "options"?); its fields are deploymentId, options, filters',
    );
  });

  it("400 on an unknown query parameter, naming it and the known ones", async () => {
    const res = await callApi(emulator(), "GET", "/api/auth/users/current/deployments/joinable?user_id=501", {
      credential: emulator().jwt,
    });
    expect(res.status).to.equal(400);
    expect(errorOf(res).message).to.equal(
      'user_id is not a query parameter of listJoinableOrganizations (did you mean "userId"?); its query parameters are userId',
    );
  });

  it("never echoes a one-time code or a credential in a validation message", async () => {
    const code = " otc-1001-a-secret ";
    const res = await callApi(emulator(), "PUT", "/api/scm/app_request_complete", {
      body: { requestId: "apprq-1001-a", code },
    });
    expect(res.status).to.equal(400);
    expect(errorOf(res).message).to.match(
      /^body\.code must be the request's one-time code .*, got a string$/,
    );
    expect(res.text).not.to.include(code.trim());
    const credential = `tok-${"x".repeat(5000)}`;
    const revoke = await callApi(emulator(), "POST", "/__emulator/credentials/revoke", {
      body: { credential },
    });
    expect(revoke.status).to.equal(400);
    expect(errorOf(revoke).message).to.match(/^body\.credential must be .*, got a string$/);
    expect(revoke.text).not.to.include("tok-xxxx");
  });

  it("400 on prototype-polluting keys", async () => {
    const res = await callApi(emulator(), "POST", listPath, {
      rawBody: '{"deploymentId":1001,"__proto__":{"x":1}}',
    });
    expect(res.status).to.equal(400);
  });

  it("400 on a body over 64 KiB, naming the limit", async () => {
    const res = await callApi(emulator(), "POST", "/api/agent/deployments/1001/repos/_provision", {
      body: { deploymentId: "1001", filters: { search: "x".repeat(70 * 1024) } },
    });
    expect(res.status).to.equal(400);
    expect(errorOf(res).message).to.equal("request body is larger than the 64 KiB (65536 bytes) limit");
  });

  it("415 on a body that is not JSON", async () => {
    const res = await callApi(emulator(), "POST", listPath, {
      rawBody: "deploymentId=1001",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).to.equal(415);
    expect(errorOf(res).code).to.equal("UNSUPPORTED_MEDIA_TYPE");
  });

  it("400 on an over-long or forbidden path parameter", async () => {
    const long = await callApi(emulator(), "GET", `/api/v2/deployments/${"1".repeat(21)}/scans/1`);
    expect(errorOf(long).message).to.equal(
      `path parameter deploymentId must be at most 20 digits long (a numeric id (digits only)), got "${"1".repeat(21)}"`,
    );
    const letters = await callApi(emulator(), "GET", "/api/v2/deployments/1001/scans/x");
    expect(errorOf(letters).message).to.equal(
      'path parameter scanId must be a numeric id (digits only), got "x"',
    );
    const encodedSlash = await callApi(emulator(), "GET", "/api/scm/deployments/1001/scm_apps/a%2Fb");
    expect(encodedSlash.status).to.equal(400);
    expect(errorOf(encodedSlash).message).to.match(
      /^path parameter requestId must not contain "\/" \(a non-empty id without .*\), got "a\/b"$/,
    );
  });

  it("400 in the error shape for a path that is not valid percent-encoding", async () => {
    const res = await callApi(emulator(), "GET", "/api/v2/deployments/1001/scans/%zz");
    expect(res.status).to.equal(400);
    expect(errorOf(res).code).to.equal("INVALID_ARGUMENT");
    expect(errorOf(res).requestId).to.equal(res.headers.get("x-request-id"));
  });

  it("404 for an unknown path, 405 with Allow for a known path and another method", async () => {
    const unknown = await callApi(emulator(), "GET", "/api/v2/deployments/1001/widgets");
    expect(unknown.status).to.equal(404);
    expect(errorOf(unknown).code).to.equal("NOT_FOUND");
    const wrongMethod = await callApi(emulator(), "DELETE", "/api/v2/deployments/1001/scans/3001");
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get("allow")).to.equal("GET");
  });
});
