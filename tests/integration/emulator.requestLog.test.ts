/**
 * The request log records every API request, from its arrival: also those whose client went away (before,
 * during or after the operation) and those refused before any operation ran.
 */
import { expect } from "chai";
import { connect, type Socket } from "node:net";
import type { EmulatorHandle, RequestLogEntry } from "../../emulator/index";
import { callApi, useEmulator } from "../support/emulator";
import { apiHeaders, rawRequest } from "../support/rawHttp";
import { waitFor } from "../support/waitFor";

const SCAN_PATH = "/api/v2/deployments/1001/scans/3001";
const ROLE_PATH = "/api/agent/deployments/1001/users/502/roles";
const ROLE_BODY = JSON.stringify({ deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" });

/** The only entry of the log, once it is finished. */
function finishedEntry(emulator: EmulatorHandle): Promise<RequestLogEntry> {
  return waitFor("the request's entry to be finished", () => {
    const entries = emulator.control.requests();
    return entries.length === 1 && !entries[0]?.pending ? entries[0] : undefined;
  });
}

/** Clients a test started; any still open when it ends (a failed test) are made to leave. */
const controllers: AbortController[] = [];
const sockets: Socket[] = [];

/** Starts a request that the client will abandon on `leave()`. */
function leavingClient(emulator: EmulatorHandle, method: string, path: string, body?: string) {
  const client = new AbortController();
  controllers.push(client);
  const exchange = rawRequest(emulator.baseUrl, method, path, {
    headers: apiHeaders(emulator.apiToken, body !== undefined),
    ...(body !== undefined ? { body } : {}),
    signal: client.signal,
  });
  return {
    leave: async () => {
      client.abort();
      return exchange;
    },
  };
}

describe("emulator request log", () => {
  const emulator = useEmulator();
  afterEach(() => {
    for (const controller of controllers.splice(0)) controller.abort();
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  const role502 = () =>
    emulator()
      .control.state()
      .users.find((u) => u.id === "502")?.roles["1001"];

  it("opens an entry on arrival: a request still waiting is listed as pending", async () => {
    emulator().control.addFault({ operation: "getScan", latencyMs: 60_000 });
    const client = leavingClient(emulator(), "GET", SCAN_PATH);
    const entry = await waitFor("the waiting request", () => emulator().control.requests()[0]);
    expect(entry).to.deep.include({ method: "GET", path: SCAN_PATH, operation: "getScan", status: 0 });
    expect(entry.pending).to.equal(true);
    expect(Number.isNaN(Date.parse(entry.at))).to.equal(false);
    await client.leave();
  });

  it("records a client that left during a latency fault as abandoned", async () => {
    emulator().control.addFault({ operation: "getScan", latencyMs: 60_000 });
    const client = leavingClient(emulator(), "GET", SCAN_PATH);
    await waitFor("the waiting request", () => emulator().control.requests()[0]);
    expect((await client.leave()).status).to.equal(undefined);
    const entry = await finishedEntry(emulator());
    expect(entry).to.deep.include({ status: 0, fault: "latency", abandoned: true, operation: "getScan" });
    expect(entry).not.to.have.property("pending");
  });

  it("records a client that left while its request body was still arriving", async () => {
    const socket = connect(Number(new URL(emulator().baseUrl).port), "127.0.0.1");
    sockets.push(socket);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `PATCH ${ROLE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emulator().apiToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${ROLE_BODY.length}\r\n\r\n${ROLE_BODY.slice(0, 10)}`,
    );
    await waitFor("the request to arrive", () => emulator().control.requests()[0]);
    socket.destroy();
    const entry = await finishedEntry(emulator());
    expect(entry).to.deep.include({ status: 0, abandoned: true, operation: "updateUserRole" });
    expect(entry).not.to.have.property("fault");
    expect(role502()).to.equal("ORG_ROLE_MEMBER");
  });

  it("records a client that left after the operation was applied, before its answer", async () => {
    emulator().control.addFault({ operation: "updateUserRole", phase: "after", latencyMs: 60_000 });
    const client = leavingClient(emulator(), "PATCH", ROLE_PATH, ROLE_BODY);
    await waitFor("the change to be applied", () => role502() === "ORG_ROLE_READONLY");
    await client.leave();
    const entry = await finishedEntry(emulator());
    expect(entry).to.deep.include({
      status: 0,
      fault: "latency",
      abandoned: true,
      operation: "updateUserRole",
    });
    expect(role502()).to.equal("ORG_ROLE_READONLY");
  });

  it("a dropped connection is the emulator's doing: status 0, fault drop, not abandoned", async () => {
    emulator().control.addFault({ operation: "getScan", drop: true });
    const exchange = await rawRequest(emulator().baseUrl, "GET", SCAN_PATH, {
      headers: apiHeaders(emulator().apiToken),
    });
    expect(exchange.status).to.equal(undefined);
    const entry = await finishedEntry(emulator());
    expect(entry).to.deep.include({ status: 0, fault: "drop" });
    expect(entry).not.to.have.property("abandoned");
  });

  it("records requests refused by routing, URL decoding, authentication and validation", async () => {
    await callApi(emulator(), "GET", "/nowhere");
    await callApi(emulator(), "GET", "/api/v2/deployments/1001/scans/%zz");
    await callApi(emulator(), "DELETE", SCAN_PATH);
    await callApi(emulator(), "GET", SCAN_PATH, { credential: null });
    await callApi(emulator(), "PATCH", ROLE_PATH, { body: { newRole: "BOSS" } });
    const entries = await waitFor("five finished entries", () => {
      const list = emulator().control.requests();
      return list.length === 5 && list.every((e) => !e.pending) ? list : undefined;
    });
    expect(entries.map((e) => [e.method, e.path, e.status, e.operation])).to.deep.equal([
      ["GET", "/nowhere", 404, null],
      ["GET", "/api/v2/deployments/1001/scans/%zz", 400, null],
      ["DELETE", SCAN_PATH, 405, null],
      ["GET", SCAN_PATH, 401, "getScan"],
      ["PATCH", ROLE_PATH, 400, "updateUserRole"],
    ]);
    for (const entry of entries) expect(entry).not.to.have.property("abandoned");
  });
});
