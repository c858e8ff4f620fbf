/**
 * What keeps an emulator on a developer's machine to itself: it answers only requests addressed to a
 * loopback name (DNS rebinding cannot reach it from a web page), its control routes that change state
 * need a JSON content type (a web page's cross-site form or text/plain POST is refused without a preflight),
 * and no connection can hold it open forever (a silent client, a dripped head, a stalled body, an idle
 * kept-alive connection, a stalled answer). The connection tests wait for the server to close the socket,
 * with time limits set short in the emulator; nothing here measures time.
 */
import { expect } from "chai";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { callControl, useEmulator } from "../support/emulator";
import { apiHeaders, openConnection, rawRequest, type RawConnection } from "../support/rawHttp";
import { waitFor } from "../support/waitFor";

const SCAN_PATH = "/api/v2/deployments/1001/scans/3001";
const ROLE_PATH = "/api/agent/deployments/1001/users/502/roles";

function portOf(handle: EmulatorHandle): string {
  return new URL(handle.baseUrl).port;
}

function errorCodeOf(body: Buffer): string | undefined {
  try {
    return (JSON.parse(body.toString("utf8")) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

describe("emulator guards: Host header", () => {
  const emulator = useEmulator({ allowedHosts: ["emulator.test"] });

  it("answers requests addressed to 127.0.0.1, localhost or [::1] on any port, in any case", async () => {
    const port = portOf(emulator());
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LocalHost:${port}`,
      `[::1]:${port}`,
      "localhost",
      "127.0.0.1:1",
      `emulator.test:${port}`,
    ]) {
      const answer = await rawRequest(emulator().baseUrl, "GET", SCAN_PATH, {
        headers: { ...apiHeaders(emulator().apiToken), host },
      });
      expect(answer.status, host).to.equal(200);
    }
  });

  it("refuses any other Host with 421, on API and control routes alike, reading and changing nothing", async () => {
    const port = portOf(emulator());
    const forged = [
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example`,
      `localhost:${port}@evil.example`,
      `localhost:http`,
      `[::1]x:${port}`,
      `192.168.1.20:${port}`,
    ];
    const tokensBefore = emulator().control.state().apiTokens.length;
    for (const host of forged) {
      const requests: Array<[string, string, string | undefined]> = [
        ["GET", SCAN_PATH, undefined],
        ["GET", "/__emulator/state", undefined],
        ["GET", "/__emulator/", undefined],
        [
          "POST",
          "/__emulator/credentials",
          JSON.stringify({ deploymentId: "1001", userId: "501", kind: "jwt" }),
        ],
        ["POST", "/__emulator/reset", undefined],
        ["PATCH", ROLE_PATH, JSON.stringify({ newRole: "ORG_ROLE_ADMIN" })],
        ["GET", "/nowhere", undefined],
      ];
      for (const [method, path, body] of requests) {
        const answer = await rawRequest(emulator().baseUrl, method, path, {
          headers: { ...apiHeaders(emulator().apiToken, true), host },
          ...(body !== undefined ? { body } : {}),
        });
        const what = `${method} ${path} with Host ${host}`;
        expect(answer.status, what).to.equal(421);
        expect(errorCodeOf(answer.body), what).to.equal("MISDIRECTED_REQUEST");
        const text = answer.body.toString("utf8");
        expect(text, what).to.include("127.0.0.1, localhost and [::1]");
        expect(text, what).not.to.match(/deployments|credential"|ORG_ROLE|eyJ/);
      }
    }
    const state = emulator().control.state();
    expect(state.apiTokens).to.have.length(tokensBefore);
    expect(state.users.find((u) => u.id === "502")?.roles["1001"]).to.equal("ORG_ROLE_MEMBER");
  });

  it("refuses a request without a Host header", async () => {
    const connection = await openConnection(emulator().baseUrl);
    connection.socket.write("GET /__emulator/state HTTP/1.0\r\n\r\n");
    const received = await connection.closed;
    expect(received).to.match(/^HTTP\/1\.1 421 /);
    expect(received).not.to.include("deployments");
  });
});

describe("emulator guards: control routes that change state need a JSON content type", () => {
  const emulator = useEmulator();

  function armedChange(handle: EmulatorHandle): void {
    handle.control.setUserRole("502", { deploymentId: "1001", role: "ORG_ROLE_READONLY" });
    handle.control.addFault({ operation: "getBranch", status: 500 });
  }

  function unchanged(handle: EmulatorHandle): void {
    expect(handle.control.state().users.find((u) => u.id === "502")?.roles["1001"]).to.equal(
      "ORG_ROLE_READONLY",
    );
    expect(handle.control.faults()).to.have.length(1);
  }

  it("refuses a reset sent as a browser's simple cross-site POST (form, text/plain or no type) with 415, changing nothing", async () => {
    armedChange(emulator());
    const simple: Array<[Record<string, string>, string | undefined]> = [
      [{ "content-type": "text/plain" }, undefined],
      [{ "content-type": "text/plain;charset=UTF-8" }, '{"reset":true}'],
      [{ "content-type": "application/x-www-form-urlencoded" }, "reset=1"],
      [{ "content-type": "multipart/form-data; boundary=x" }, "--x--\r\n"],
      [{}, undefined],
    ];
    for (const [headers, body] of simple) {
      const answer = await rawRequest(emulator().baseUrl, "POST", "/__emulator/reset", {
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const what = JSON.stringify(headers);
      expect(answer.status, what).to.equal(415);
      expect(errorCodeOf(answer.body), what).to.equal("UNSUPPORTED_MEDIA_TYPE");
      expect(answer.body.toString("utf8"), what).to.include("application/json");
      unchanged(emulator());
    }
  });

  it("refuses every other state-changing control route without JSON, and accepts them with it", async () => {
    armedChange(emulator());
    const minted = await rawRequest(emulator().baseUrl, "POST", "/__emulator/credentials", {
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ deploymentId: "1001", userId: "501", kind: "jwt" }),
    });
    expect(minted.status).to.equal(415);
    expect(minted.body.toString("utf8")).not.to.match(/eyJ/);
    for (const [method, path] of [
      ["DELETE", "/faults"],
      ["DELETE", "/requests"],
      ["DELETE", "/requests/counts"],
      ["PUT", "/users/502/role"],
    ] as const) {
      const refused = await rawRequest(emulator().baseUrl, method, `/__emulator${path}`);
      expect(refused.status, `${method} ${path}`).to.equal(415);
    }
    unchanged(emulator());

    expect((await callControl(emulator(), "DELETE", "/faults")).status).to.equal(200);
    expect(emulator().control.faults()).to.deep.equal([]);
    const reset = await rawRequest(emulator().baseUrl, "POST", "/__emulator/reset", {
      headers: { "content-type": "Application/JSON; charset=utf-8" },
    });
    expect(reset.status).to.equal(200);
    expect(
      emulator()
        .control.state()
        .users.find((u) => u.id === "502")?.roles["1001"],
    ).to.equal("ORG_ROLE_MEMBER");
    // Reading needs no content type.
    expect((await rawRequest(emulator().baseUrl, "GET", "/__emulator/state")).status).to.equal(200);
  });
});

describe("emulator guards: connection time limits", function () {
  // Bounds only a failing test: each test waits for the server to close a socket.
  this.timeout(60_000);
  let handle: EmulatorHandle | undefined;
  const connections: RawConnection[] = [];
  const emulator = () => handle as EmulatorHandle;

  before(async () => {
    handle = await startEmulator({
      quiet: true,
      timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 300, socketIdleMs: 1500 },
    });
  });
  afterEach(() => {
    for (const connection of connections.splice(0)) connection.socket.destroy();
  });
  after(async () => {
    await handle?.close();
  });

  async function connect(): Promise<RawConnection> {
    const connection = await openConnection(emulator().baseUrl);
    connections.push(connection);
    return connection;
  }

  it("closes a connection that sends nothing (408)", async () => {
    const connection = await connect();
    expect(await connection.closed).to.match(/^HTTP\/1\.1 408 /);
  });

  it("closes a connection whose request head is dripped a byte at a time (408)", async () => {
    const connection = await connect();
    connection.drip(`GET ${SCAN_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ${"a".repeat(10_000)}`, 20);
    expect(await connection.closed).to.match(/^HTTP\/1\.1 408 /);
  });

  it("closes a connection whose body stalls half-way (408), and the write is not applied", async () => {
    const connection = await connect();
    const body = JSON.stringify({ deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_ADMIN" });
    connection.socket.write(
      `PATCH ${ROLE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emulator().apiToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    expect(await connection.closed).to.match(/^HTTP\/1\.1 408 /);
    expect(
      emulator()
        .control.state()
        .users.find((u) => u.id === "502")?.roles["1001"],
    ).to.equal("ORG_ROLE_MEMBER");
  });

  it("closes a connection whose body is dripped a byte at a time (408)", async () => {
    const connection = await connect();
    connection.socket.write(
      `POST /__emulator/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: 10000\r\n\r\n`,
    );
    connection.drip(" ".repeat(10_000), 20);
    expect(await connection.closed).to.match(/^HTTP\/1\.1 408 /);
  });

  it("closes a kept-alive connection left idle after its answer", async () => {
    const connection = await connect();
    connection.socket.write(
      `GET ${SCAN_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emulator().apiToken}\r\n\r\n`,
    );
    const received = await connection.closed;
    expect(received).to.match(/^HTTP\/1\.1 200 /);
    expect(received).to.match(/keep-alive/i);
  });

  it("closes a connection silent in any state (a stalled answer), and the log does not blame the client", async () => {
    emulator().control.addFault({ operation: "getScan", phase: "after", stall: true });
    const connection = await connect();
    connection.socket.write(
      `GET ${SCAN_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emulator().apiToken}\r\n\r\n`,
    );
    expect(await connection.closed).to.match(/^HTTP\/1\.1 200 /);
    const entry = await waitFor("the stalled request's log entry to finish", () =>
      emulator()
        .control.requests()
        .find((e) => e.fault === "stall" && e.pending === undefined),
    );
    expect(entry).not.to.have.property("abandoned");
  });

  it("still answers a request that keeps within the limits", async () => {
    const answer = await rawRequest(emulator().baseUrl, "GET", SCAN_PATH, {
      headers: apiHeaders(emulator().apiToken),
    });
    expect(answer.status).to.equal(200);
  });
});
