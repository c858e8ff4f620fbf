/**
 * One HTTP attempt (client/http.ts) against a local fake: complete and broken answers, whether a failed
 * request may have arrived, decompression, the size cap, and keep-alive sockets that never keep a
 * process alive.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import type { LookupFunction } from "node:net";
import * as path from "node:path";
import { sendHttpAttempt, type HttpAttempt, type HttpOutcome } from "../../client/http";
import { FakeServer, SAMPLES, refusedBaseUrl } from "../support/fakeServer";

const TIMEOUT_MS = 10_000;

function attempt(baseUrl: string, extra: Partial<HttpAttempt> = {}): Promise<HttpOutcome> {
  return sendHttpAttempt({
    url: new URL(`${baseUrl}/api/auth/users/current`),
    method: "GET",
    headers: { Accept: "application/json" },
    timeoutMs: TIMEOUT_MS,
    ...extra,
  });
}

function expectKind<K extends HttpOutcome["kind"]>(
  outcome: HttpOutcome,
  kind: K,
): Extract<HttpOutcome, { kind: K }> {
  expect(outcome.kind, JSON.stringify(outcome)).to.equal(kind);
  return outcome as Extract<HttpOutcome, { kind: K }>;
}

/** A resolver for names under `.test` that fails with `code`, or never answers when `code` is undefined. */
function lookupFailing(code?: string): LookupFunction {
  return (hostname, _options, callback) => {
    if (code === undefined) return;
    const error = Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code });
    callback(error, "", 4);
  };
}

describe("one HTTP attempt (client/http.ts)", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await FakeServer.start();
  });
  afterEach(async () => server.close());

  describe("complete answers", () => {
    it("reads a body as UTF-8, multi-byte characters split across chunks included", async () => {
      const text = "é€😀".repeat(50_000);
      server.always({ status: 200, text, chunked: true });
      const answer = expectKind(await attempt(server.baseUrl), "answer");
      expect(answer.status).to.equal(200);
      expect(answer.text).to.equal(text);
    });

    for (const encoding of ["gzip", "deflate", "br"] as const) {
      it(`decompresses a ${encoding} body the server sends unasked`, async () => {
        server.always({ status: 200, json: { user: SAMPLES.user }, encoding });
        const answer = expectKind(await attempt(server.baseUrl), "answer");
        expect(JSON.parse(answer.text)).to.deep.equal({ user: SAMPLES.user });
        expect(server.requests[0].headers["accept-encoding"]).to.equal(undefined);
      });
    }

    it("reports an unknown or corrupt Content-Encoding as undecodable", async () => {
      server.sequence(
        { status: 200, text: "{}", headers: { "content-encoding": "compress" } },
        { status: 200, text: "not gzip at all", headers: { "content-encoding": "gzip" } },
      );
      const unknown = expectKind(await attempt(server.baseUrl), "undecodable");
      expect(unknown.reason).to.include("compress");
      expectKind(await attempt(server.baseUrl), "undecodable");
    });

    it("does not follow a redirect: the 3xx comes back with its Location", async () => {
      server.always({ status: 302, headers: { location: "https://elsewhere.example.com/" } });
      const answer = expectKind(await attempt(server.baseUrl), "answer");
      expect(answer.status).to.equal(302);
      expect(answer.headers.location).to.equal("https://elsewhere.example.com/");
      expect(server.requests).to.have.length(1);
    });

    it("sends the body with its Content-Length", async () => {
      const body = Buffer.from(JSON.stringify({ name: "ü" }), "utf8");
      await attempt(server.baseUrl, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", "Content-Length": String(body.length) },
      });
      expect(server.requests[0].headers["content-length"]).to.equal(String(body.length));
      expect(server.requests[0].json).to.deep.equal({ name: "ü" });
    });
  });

  describe("the answer size cap", () => {
    it("refuses a declared Content-Length above the cap without reading it", async () => {
      server.always({ status: 200, text: "x".repeat(2000) });
      const tooLarge = expectKind(await attempt(server.baseUrl, { maxAnswerBytes: 1000 }), "tooLarge");
      expect(tooLarge).to.include({ status: 200, limitBytes: 1000 });
    });

    it("stops reading a chunked body once it passes the cap", async () => {
      server.always({ status: 200, text: "x".repeat(2000), chunked: true });
      expectKind(await attempt(server.baseUrl, { maxAnswerBytes: 1000 }), "tooLarge");
    });

    it("caps the decompressed size, not the compressed one", async () => {
      server.always({ status: 200, text: "x".repeat(100_000), encoding: "gzip" });
      expectKind(await attempt(server.baseUrl, { maxAnswerBytes: 10_000 }), "tooLarge");
    });
  });

  describe("broken answers", () => {
    it("reports a body cut off before its Content-Length at once, not at the timeout", async () => {
      server.always({ status: 200, json: { user: SAMPLES.user }, cutOffAfter: 10 });
      const started = Date.now();
      const truncated = expectKind(await attempt(server.baseUrl), "truncated");
      expect(Date.now() - started).to.be.below(TIMEOUT_MS / 2);
      expect(truncated).to.include({ status: 200, receivedBytes: 10 });
      expect(truncated.expectedBytes).to.equal(JSON.stringify({ user: SAMPLES.user }).length);
    });

    it("reports a chunked body cut off before its last chunk at once", async () => {
      server.always({ status: 200, json: { user: SAMPLES.user }, cutOffAfter: 10, chunked: true });
      const started = Date.now();
      const truncated = expectKind(await attempt(server.baseUrl), "truncated");
      expect(Date.now() - started).to.be.below(TIMEOUT_MS / 2);
      expect(truncated.expectedBytes).to.equal(undefined);
    });

    it("times out a body that stalls after its first bytes, at the timeout", async () => {
      server.always({ status: 200, json: { user: SAMPLES.user }, stallAfter: 10 });
      const started = Date.now();
      const timeout = expectKind(await attempt(server.baseUrl, { timeoutMs: 300 }), "timeout");
      expect(Date.now() - started).to.be.at.least(290);
      expect(timeout.mayHaveArrived).to.equal(true);
    });

    it("times out an answer whose headers never come", async () => {
      server.always({ delayMs: 5000 });
      const timeout = expectKind(await attempt(server.baseUrl, { timeoutMs: 200 }), "timeout");
      expect(timeout.mayHaveArrived).to.equal(true);
    });
  });

  describe("whether a failed request may have arrived", () => {
    it("not when the connection is refused", async () => {
      const network = expectKind(await attempt(await refusedBaseUrl()), "network");
      expect(network).to.include({ code: "ECONNREFUSED", mayHaveArrived: false });
    });

    for (const code of ["ENOTFOUND", "EAI_AGAIN"]) {
      it(`not when the name does not resolve (${code})`, async () => {
        const outcome = await attempt("http://codesec.test:8080", { lookup: lookupFailing(code) });
        expect(expectKind(outcome, "network")).to.include({ code, mayHaveArrived: false });
      });
    }

    it("not when the connection times out before it is established", async () => {
      const outcome = await attempt("http://codesec.test:8080", { lookup: lookupFailing(), timeoutMs: 100 });
      expect(expectKind(outcome, "timeout").mayHaveArrived).to.equal(false);
    });

    it("not when the TLS handshake fails (no byte of the request leaves before it completes)", async () => {
      // An https client talking to a plain-HTTP server fails the handshake.
      const outcome = await attempt(server.baseUrl.replace("http:", "https:"));
      expect(expectKind(outcome, "network").mayHaveArrived).to.equal(false);
      expect(server.requests).to.have.length(0);
    });

    it("yes when the connection breaks after the request was received", async () => {
      server.always({ destroy: true });
      const network = expectKind(await attempt(server.baseUrl), "network");
      expect(network.mayHaveArrived).to.equal(true);
      expect(server.requests).to.have.length(1);
    });

    it("yes for a failure on a reused keep-alive socket, which is connected from the start", async () => {
      server.sequence({ status: 200, json: {} }, { delayMs: 5000 });
      expectKind(await attempt(server.baseUrl), "answer");
      const timeout = expectKind(await attempt(server.baseUrl, { timeoutMs: 100 }), "timeout");
      expect(timeout.mayHaveArrived).to.equal(true);
      expect(server.requests[1].remotePort).to.equal(server.requests[0].remotePort);
    });
  });

  describe("connections", () => {
    it("reuses one keep-alive connection, unless a fresh one is asked for", async () => {
      server.always({ status: 200, json: {} });
      await attempt(server.baseUrl);
      await attempt(server.baseUrl);
      await attempt(server.baseUrl, { freshConnection: true });
      const ports = server.requests.map((request) => request.remotePort);
      expect(ports[1]).to.equal(ports[0]);
      expect(ports[2]).not.to.equal(ports[0]);
    });

    it("an idle keep-alive socket does not keep a process alive", async function () {
      this.timeout(30_000);
      // The server would hold the idle connection open for a minute: only the client's unref can end it sooner.
      const longLived = await FakeServer.start(() => ({ status: 200, json: { user: SAMPLES.user } }), {
        keepAliveTimeoutMs: 60_000,
      });
      try {
        const script = [
          'const { CodeSecClient } = require("./client");',
          "const client = new CodeSecClient({ baseUrl: process.env.BASE_URL, token: 'child-token' });",
          "client.getCurrentUser().then(() => client.getCurrentUser()).then(() => console.log('done'));",
        ].join("\n");
        const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
          cwd: path.resolve(__dirname, "../.."),
          env: { ...process.env, BASE_URL: longLived.baseUrl },
          stdio: ["ignore", "pipe", "inherit"],
        });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
        const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
          child.on("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
        );
        clearTimeout(killer);
        expect(signal, "the child was kept alive and had to be killed").to.equal(null);
        expect(code).to.equal(0);
        expect(stdout.trim()).to.equal("done");
        expect(longLived.requests).to.have.length(2);
        expect(longLived.requests[1].remotePort, "the socket was kept alive").to.equal(
          longLived.requests[0].remotePort,
        );
      } finally {
        await longLived.close();
      }
    });
  });
});
