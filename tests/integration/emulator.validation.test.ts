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
      "a request body (a JSON object) is required",
    );
    expect(errorOf(await callApi(emulator(), "POST", listPath, { body: [1001] })).message).to.equal(
      "request body must be a JSON object",
    );
    const wrongType = await callApi(emulator(), "POST", listPath, {
      body: { deploymentId: 1001, options: { optionalLimit: "5" } },
    });
    expect(wrongType.status).to.equal(400);
    expect(errorOf(wrongType).message).to.equal("body.options.optionalLimit must be an integer");
    const wrongBool = await callApi(emulator(), "POST", "/api/agent/deployments/1001/repos/_provision", {
      body: { deploymentId: "1001", filters: { archived: "false" } },
    });
    expect(errorOf(wrongBool).message).to.equal("body.filters.archived must be a boolean");
  });

  it("400 on unknown body fields, naming them", async () => {
    const res = await callApi(emulator(), "PATCH", rolePath, {
      body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_MEMBER", role: "x" },
    });
    expect(res.status).to.equal(400);
    expect(errorOf(res).message).to.equal(
      "body.role is not a known field (known fields: deploymentId, userId, newRole)",
    );
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
    expect(errorOf(long).message).to.equal("path parameter deploymentId must be at most 20 characters long");
    const encodedSlash = await callApi(emulator(), "GET", "/api/scm/deployments/1001/scm_apps/a%2Fb");
    expect(encodedSlash.status).to.equal(400);
    expect(errorOf(encodedSlash).message).to.match(
      /^path parameter requestId must be a non-empty id without/,
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
