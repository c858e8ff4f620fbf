/**
 * Injected faults of phase "after" (the operation runs and its change is saved, then the answer is lost,
 * replaced, cut short, stalled or missing a field), and the rules of a fault spec.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle, type FaultSpec } from "../../emulator/index";
import { readSavedData } from "../../emulator/stateJournal";
import { callApi, errorOf, useEmulator } from "../support/emulator";
import { apiHeaders, rawRequest, type RawExchange } from "../support/rawHttp";
import { waitFor } from "../support/waitFor";

const ROOT = join(__dirname, "..", "..");
const SCAN_PATH = "/api/v2/deployments/1001/scans/3001";
const ROLE_PATH = "/api/agent/deployments/1001/users/502/roles";
const ROLE_BODY = JSON.stringify({ deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" });
const SUBSCRIBE_PATH = "/api/scm/deployments/1001/subscriptions/scmcfg-1001-b";

function roleOf(emulator: EmulatorHandle, userId: string): string | undefined {
  return emulator.control.state().users.find((u) => u.id === userId)?.roles["1001"];
}

function get(emulator: EmulatorHandle, path: string, idleTimeoutMs?: number): Promise<RawExchange> {
  return rawRequest(emulator.baseUrl, "GET", path, {
    headers: apiHeaders(emulator.apiToken),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
  });
}

function send(emulator: EmulatorHandle, method: string, path: string, body?: string): Promise<RawExchange> {
  return rawRequest(emulator.baseUrl, method, path, {
    headers: apiHeaders(emulator.apiToken, body !== undefined),
    ...(body !== undefined ? { body } : {}),
  });
}

function lastEntry(emulator: EmulatorHandle) {
  return emulator.control.requests().at(-1);
}

describe("emulator faults of phase after", () => {
  const emulator = useEmulator();
  /** Clients a test may leave waiting when it fails; they are made to go away after each test. */
  const clients: AbortController[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.abort();
  });
  const arm = (spec: FaultSpec) => emulator().control.addFault(spec);

  describe("a lost answer (drop)", () => {
    let dir: string;
    let own: EmulatorHandle | undefined;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "codesec-faults-"));
    });
    afterEach(async () => {
      await own?.close();
      own = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    it("applies and saves the change, then destroys the connection: the client sees no answer", async () => {
      const stateFile = join(dir, "state.json");
      own = await startEmulator({ quiet: true, stateFile });
      own.control.addFault({ operation: "updateUserRole", phase: "after", drop: true });
      const exchange = await send(own, "PATCH", ROLE_PATH, ROLE_BODY);
      expect(exchange.status).to.equal(undefined);
      expect(exchange.failure).to.be.a("string");
      expect(roleOf(own, "502")).to.equal("ORG_ROLE_READONLY");
      const saved = readSavedData(stateFile);
      expect(saved.users.find((u) => u.id === "502")?.roles["1001"]).to.equal("ORG_ROLE_READONLY");
      const entry = await waitFor("the dropped request's entry", () => {
        const last = lastEntry(own as EmulatorHandle);
        return last?.pending ? undefined : last;
      });
      expect(entry).to.deep.include({ operation: "updateUserRole", status: 0, fault: "drop" });
      expect(entry).not.to.have.property("abandoned");
    });
  });

  it("status: answers the error (with Retry-After) after the change was applied", async () => {
    arm({
      operation: "subscribeScmWebhook",
      phase: "after",
      status: 503,
      retryAfter: "3",
      message: "gateway lost the answer",
    });
    const res = await callApi(emulator(), "PUT", SUBSCRIBE_PATH);
    expect(res.status).to.equal(503);
    expect(res.headers.get("retry-after")).to.equal("3");
    expect(errorOf(res)).to.include({ code: "UNAVAILABLE", message: "gateway lost the answer" });
    const config = emulator()
      .control.state()
      .scmConfigurations.find((c) => c.configId === "scmcfg-1001-b");
    expect(config?.subscription?.scmUrl).to.equal("https://scm.acme.internal.example");
    expect(lastEntry(emulator())).to.deep.include({ status: 503, fault: "status" });
  });

  it("malformed: a one-time code is spent although the client cannot read the answer", async () => {
    arm({ operation: "completeScmAppRequest", phase: "after", malformed: true });
    const { scmAppRequestId, scmAppCode } = emulator().sample;
    const res = await callApi(emulator(), "PUT", "/api/scm/app_request_complete", {
      body: { requestId: scmAppRequestId, code: scmAppCode },
    });
    expect(res.status).to.equal(200);
    expect(() => {
      JSON.parse(res.text);
    }).to.throw();
    const request = emulator()
      .control.state()
      .scmAppRequests.find((r) => r.requestId === scmAppRequestId);
    expect(request?.state).to.equal("completed");
  });

  it("latency alone delays the answer of an applied change, which then arrives whole", async () => {
    arm({ operation: "updateUserRole", phase: "after", latencyMs: 50 });
    const exchange = await send(emulator(), "PATCH", ROLE_PATH, ROLE_BODY);
    expect(exchange.status).to.equal(200);
    expect(exchange.body.toString()).to.equal("{}");
    expect(roleOf(emulator(), "502")).to.equal("ORG_ROLE_READONLY");
    expect(lastEntry(emulator())).to.deep.include({ status: 200, fault: "latency" });
  });

  it("acts only on an operation that completed: a refused request leaves the fault armed", async () => {
    arm({ operation: "updateUserRole", phase: "after", drop: true });
    const refused = await send(
      emulator(),
      "PATCH",
      ROLE_PATH,
      JSON.stringify({ deploymentId: "1001", userId: "502", newRole: "BOSS" }),
    );
    expect(refused.status).to.equal(400);
    expect(emulator().control.faults()).to.have.length(1);
    expect((await send(emulator(), "PATCH", ROLE_PATH, ROLE_BODY)).status).to.equal(undefined);
    expect(emulator().control.faults()).to.deep.equal([]);
  });

  describe("truncate", () => {
    it("announces the real body's Content-Length and sends only its first half", async () => {
      const whole = await get(emulator(), SCAN_PATH);
      expect(whole.complete).to.equal(true);
      arm({ operation: "getScan", phase: "after", truncate: true });
      const cut = await get(emulator(), SCAN_PATH);
      expect(cut.status).to.equal(200);
      expect(cut.headers["content-length"]).to.equal(String(whole.body.length));
      expect(cut.complete).to.equal(false);
      expect(cut.body.length).to.equal(Math.floor(whole.body.length / 2));
      expect(whole.body.subarray(0, cut.body.length).equals(cut.body)).to.equal(true);
      expect(lastEntry(emulator())).to.deep.include({ status: 200, fault: "truncate" });
      expect(lastEntry(emulator())).not.to.have.property("abandoned");
    });

    it("still cuts the smallest answers: {} of `updateUserRole` and the small object of `subscribeScmWebhook`", async () => {
      arm({ operation: "updateUserRole", phase: "after", truncate: true });
      const role = await send(emulator(), "PATCH", ROLE_PATH, ROLE_BODY);
      expect(role.headers["content-length"]).to.equal("2");
      expect(role.body.toString()).to.equal("{");
      expect(role.complete).to.equal(false);
      expect(roleOf(emulator(), "502")).to.equal("ORG_ROLE_READONLY");

      arm({ operation: "subscribeScmWebhook", phase: "after", truncate: true });
      const subscribed = await send(emulator(), "PUT", SUBSCRIBE_PATH);
      const announced = Number(subscribed.headers["content-length"]);
      expect(subscribed.body.length).to.be.greaterThan(0);
      expect(subscribed.body.length).to.be.lessThan(announced);
      expect(subscribed.complete).to.equal(false);
    });
  });

  describe("stall", () => {
    it("sends half the body and then nothing, until the client gives up", async () => {
      arm({ operation: "getScan", phase: "after", stall: true });
      const stalled = await get(emulator(), SCAN_PATH, 300);
      expect(stalled.status).to.equal(200);
      expect(stalled.failure).to.equal("timeout");
      expect(stalled.complete).to.equal(false);
      expect(stalled.body.length).to.equal(Math.floor(Number(stalled.headers["content-length"]) / 2));
      const entry = await waitFor("the stalled request's entry", () => {
        const last = lastEntry(emulator());
        return last?.pending ? undefined : last;
      });
      expect(entry).to.deep.include({ status: 200, fault: "stall", abandoned: true });
    });

    it("is listed as pending while it stalls", async () => {
      arm({ operation: "getScan", phase: "after", stall: true });
      const client = new AbortController();
      clients.push(client);
      const stalled = rawRequest(emulator().baseUrl, "GET", SCAN_PATH, {
        headers: apiHeaders(emulator().apiToken),
        signal: client.signal,
      });
      const pending = await waitFor("the stalled request in the log", () => lastEntry(emulator()));
      expect(pending).to.deep.include({ operation: "getScan", status: 0, pending: true });
      client.abort();
      expect((await stalled).failure).to.equal("ABORT_ERR");
    });
  });

  describe("omitField", () => {
    it("removes exactly that field and nothing else, even a required one", async () => {
      const whole = JSON.parse((await get(emulator(), SCAN_PATH)).body.toString()) as {
        scan: Record<string, unknown>;
      };
      arm({ operation: "getScan", phase: "after", omitField: "scan.status" });
      const res = await callApi(emulator(), "GET", SCAN_PATH);
      expect(res.status).to.equal(200);
      const { status: _status, ...rest } = whole.scan;
      expect(res.json).to.deep.equal({ scan: rest });
      expect(Number(res.headers.get("content-length"))).to.equal(Buffer.byteLength(res.text));
      expect(lastEntry(emulator())).to.deep.include({ status: 200, fault: "omitField" });
    });

    it("works on nested fields and on whole members of a write's answer", async () => {
      arm({ operation: "getScmApp", phase: "after", omitField: "app.slug" });
      const app = await callApi(emulator(), "GET", "/api/scm/deployments/1001/scm_apps/apprq-1001-done");
      expect((app.json as { app: Record<string, unknown> }).app).to.not.have.property("slug");
      expect((app.json as { app: Record<string, unknown> }).app).to.have.property("appId");

      arm({ operation: "provisionWorkflows", phase: "after", omitField: "repoFileUrls" });
      const provisioned = await callApi(emulator(), "POST", "/api/agent/deployments/1001/repos/_provision", {
        body: { deploymentId: "1001", filters: { ids: ["7001"] } },
      });
      expect(provisioned.json).to.deep.equal({ errors: [] });
      const project = emulator()
        .control.state()
        .projects.find((p) => p.id === "7001");
      expect(project?.workflow?.fileUrl).to.match(/codesec\.yml$/);
    });

    it("answers 400 when the field is not in this answer (the operation itself was applied)", async () => {
      // completeTime is in the schema but a running scan has none.
      arm({ path: "/api/v2/deployments/1001/scans/3002", phase: "after", omitField: "scan.completeTime" });
      const res = await callApi(emulator(), "GET", "/api/v2/deployments/1001/scans/3002");
      expect(res.status).to.equal(400);
      expect(errorOf(res).message).to.match(/omitField "scan\.completeTime" names no field of this answer/);
    });
  });
});

describe("emulator fault specs", () => {
  const emulator = useEmulator();
  const post = (spec: unknown) =>
    callApi(emulator(), "POST", "/__emulator/faults", { credential: null, body: spec });

  it("accepts the new fields over HTTP and lists them", async () => {
    const res = await post({ operation: "getScan", phase: "after", omitField: "scan.status", count: 2 });
    expect(res.status).to.equal(201);
    expect((res.json as { fault: Record<string, unknown> }).fault).to.include({
      phase: "after",
      omitField: "scan.status",
      remaining: 2,
    });
  });

  it("refuses truncate, stall and omitField outside phase after", async () => {
    for (const spec of [
      { operation: "getScan", truncate: true },
      { operation: "getScan", stall: true, phase: "before" },
      { operation: "getScan", omitField: "scan.status" },
    ]) {
      const res = await post(spec);
      expect(res.status, JSON.stringify(spec)).to.equal(400);
      expect(errorOf(res).message).to.match(/needs "phase": "after"/);
    }
  });

  it("refuses two answers at once, an unknown phase and a field the operation's answer never has", async () => {
    const two = await post({ operation: "getScan", phase: "after", truncate: true, stall: true });
    expect(two.status).to.equal(400);
    expect(errorOf(two).message).to.match(/at most one of .*truncate and stall/);
    expect((await post({ operation: "getScan", phase: "later", drop: true })).status).to.equal(400);
    const unknown = await post({ operation: "getScan", phase: "after", omitField: "scan.nope" });
    expect(unknown.status).to.equal(400);
    expect(errorOf(unknown).message).to.equal(
      'omitField "scan.nope" is not a field of the answer of getScan',
    );
    expect(emulator().control.faults()).to.deep.equal([]);
  });
});

describe("emulator close with a stalled answer", () => {
  let running: EmulatorHandle | undefined;
  afterEach(async () => {
    await running?.close(); // a test that failed before closing its emulator
    running = undefined;
  });

  it("returns promptly and ends the stalled connection", async () => {
    const emulator = await startEmulator({ quiet: true });
    running = emulator;
    emulator.control.addFault({ operation: "getScan", phase: "after", stall: true });
    const stalled = get(emulator, SCAN_PATH, 30_000);
    await waitFor("the stall to begin", () => emulator.control.requests().length === 1);
    const started = Date.now();
    await emulator.close();
    // Well under the client's 30 s idle timeout: close() does not wait for the client to give up.
    expect(Date.now() - started).to.be.lessThan(5000);
    const exchange = await stalled;
    expect(exchange.failure).to.not.equal("timeout");
    expect(exchange.complete).to.equal(false);
    const entry = emulator.control.requests()[0];
    expect(entry).to.deep.include({ status: 200, fault: "stall" });
    // The emulator ended it, not the client.
    expect(entry).not.to.have.property("abandoned");
    expect(entry).not.to.have.property("pending");
  });

  it("leaves nothing that keeps the process alive", async function () {
    this.timeout(60_000);
    const script = `
      const http = require("node:http");
      const { startEmulator } = require("./emulator/index");
      startEmulator({ quiet: true }).then((emulator) => {
        emulator.control.addFault({ operation: "getScan", phase: "after", stall: true });
        const req = http.request(emulator.baseUrl + ${JSON.stringify(SCAN_PATH)}, {
          headers: { authorization: "Bearer " + emulator.apiToken },
        });
        req.on("error", () => undefined);
        req.on("response", (res) => {
          res.on("error", () => undefined);
          res.once("data", () => emulator.close().then(() => process.stdout.write("closed\\n")));
        });
        req.end();
      });
    `;
    const child = spawn(
      process.execPath,
      ["--conditions=codesec-source", "-r", "ts-node/register/transpile-only", "-e", script],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // The child never calls process.exit: it ends only when nothing is left to keep it alive.
    const limit = new Promise<"still running">((resolve) => {
      const timer = setTimeout(() => resolve("still running"), 45_000);
      void exited.then(() => clearTimeout(timer));
    });
    const outcome = await Promise.race([exited, limit]);
    if (outcome === "still running") child.kill("SIGKILL");
    expect(outcome).to.equal(0);
    expect(out).to.equal("closed\n");
  });
});
