/**
 * Cumulative request counters (`GET /__emulator/requests/counts`, `control.requestCounts()`): by operation and
 * status, beyond the request log's last 1,000 entries, for benchmarks that count the calls of a whole run.
 */
import { expect } from "chai";
import { Agent } from "node:http";
import type { RequestCounts } from "../../emulator/index";
import { REQUEST_LOG_LIMIT } from "../../emulator/requestLog";
import { callApi, callControl, useEmulator } from "../support/emulator";
import { apiHeaders, rawRequest } from "../support/rawHttp";
import { waitFor } from "../support/waitFor";

const SCAN_PATH = "/api/v2/deployments/1001/scans/3001";
const ROLE_PATH = "/api/agent/deployments/1001/users/502/roles";

describe("emulator request counters", () => {
  const emulator = useEmulator();
  const control = (method: string, path: string, body?: unknown) =>
    callControl(emulator(), method, path, body);

  it("count every API request by operation and status, beyond the request log's limit", async () => {
    const total = REQUEST_LOG_LIMIT + 20;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      let sent = 0;
      const worker = async () => {
        while (sent < total) {
          sent += 1;
          const answer = await rawRequest(emulator().baseUrl, "GET", SCAN_PATH, {
            agent,
            headers: apiHeaders(emulator().apiToken),
          });
          expect(answer.status).to.equal(200);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    } finally {
      agent.destroy();
    }
    await callApi(emulator(), "GET", SCAN_PATH, { credential: null });
    await callApi(emulator(), "PATCH", ROLE_PATH, {
      body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" },
    });
    await callApi(emulator(), "GET", "/api/v2/nothing-here");
    expect(emulator().control.requests()).to.have.length(REQUEST_LOG_LIMIT);
    const counts = await waitFor("every request to be counted", () => {
      const now = emulator().control.requestCounts();
      return now.total === total + 3 ? now : undefined;
    });
    expect(counts.byOperation).to.deep.equal({
      getScan: { "200": total, "401": 1 },
      updateUserRole: { "200": 1 },
      none: { "404": 1 },
    });
    expect(counts.byStatus).to.deep.equal({ "200": total + 1, "401": 1, "404": 1 });
    expect(Number.isNaN(Date.parse(counts.since))).to.equal(false);
  });

  it("do not count the control surface, and hold no credential", async () => {
    await control("GET", "/state");
    await control("GET", "/requests/counts");
    await callApi(emulator(), "GET", "/api/auth/users/current");
    const counts = emulator().control.requestCounts();
    expect(counts.total).to.equal(1);
    expect(counts.byOperation).to.deep.equal({ getCurrentUser: { "200": 1 } });
    expect(JSON.stringify(counts)).not.to.include(emulator().apiToken);
  });

  it("are served over HTTP as in process, and reset by DELETE, resetRequestCounts() and reset()", async () => {
    await callApi(emulator(), "GET", SCAN_PATH);
    const served = await control("GET", "/requests/counts");
    expect(served.status).to.equal(200);
    expect(served.json).to.deep.equal(emulator().control.requestCounts());
    expect((served.json as RequestCounts).byOperation).to.deep.equal({ getScan: { "200": 1 } });

    const cleared = await control("DELETE", "/requests/counts");
    expect(cleared.status).to.equal(200);
    expect(cleared.json).to.deep.equal({ cleared: true });
    expect(emulator().control.requestCounts()).to.include({ total: 0 });
    expect(emulator().control.requestCounts().byOperation).to.deep.equal({});
    // Resetting the counters leaves the log alone, and the other way round.
    expect(emulator().control.requests()).to.have.length(1);
    await callApi(emulator(), "GET", SCAN_PATH);
    emulator().control.clearRequests();
    expect(emulator().control.requestCounts().total).to.equal(1);

    emulator().control.resetRequestCounts();
    expect(emulator().control.requestCounts().total).to.equal(0);
    await callApi(emulator(), "GET", SCAN_PATH);
    emulator().control.reset();
    expect(emulator().control.requestCounts().total).to.equal(0);
  });

  it("are listed in the control surface's index", async () => {
    const index = await control("GET", "/");
    const routes = (index.json as { routes: Array<{ method: string; path: string }> }).routes;
    const listed = (method: string) =>
      routes.some((r) => r.method === method && r.path === "/__emulator/requests/counts");
    expect(listed("GET")).to.equal(true);
    expect(listed("DELETE")).to.equal(true);
  });
});
