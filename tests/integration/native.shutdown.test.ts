/**
 * How the native plugin's process ends (provider/native/shutdown.ts), in a process of its own started as
 * the engine starts it, from the bundle its release ships (made once for the file; one test runs the
 * sources, for their coverage): on SIGINT it takes no new call, lets a write under way finish, then exits
 * 0, whether the engine's connection is still open or already closed (as the engine closes it before its
 * SIGINT); a second signal ends it at once; when the engine is gone (a killed CLI: connection, Log
 * service, output pipes and stdin all gone) it finishes its calls, messages included, and exits 0 by
 * itself, or exits 1 when they take longer than the grace it gives them then; with no stdin pipe it keeps
 * serving; a grace its environment sets out of bounds is said on stderr.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import * as http2 from "node:http2";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { EmulatorHandle } from "../../emulator/index";
import { useEmulator } from "../support/emulator";
import {
  bundledPlugin,
  configure,
  PLUGIN_FROM_SOURCE,
  Empty,
  provider,
  secret,
  spawnPlugin,
  struct,
  type PluginEntry,
  type PluginProcess,
} from "../support/nativePlugin";
import { waitFor } from "../support/waitFor";

/** How long the emulator holds the answer of a role write it has applied. */
const LATENCY_MS = 3000;

/**
 * A role write of user 502 that the emulator applies at once and answers `latencyMs` later, for each of its
 * first `attempts`; `timeoutSeconds` is the step's customTimeouts, as the engine passes it (none by default:
 * the 30 s default deadline).
 */
function slowRoleWrite(
  plugin: PluginProcess,
  h: EmulatorHandle,
  latencyMs = LATENCY_MS,
  options: { timeoutSeconds?: number; attempts?: number } = {},
) {
  const { timeoutSeconds = 0, attempts = 1 } = options;
  h.control.addFault({ operation: "updateUserRole", phase: "after", latencyMs, count: attempts });
  const write = plugin.client.create(
    new provider.CreateRequest()
      .setUrn("urn:pulumi:test::codesec-test::codesec:index:UserRole::member")
      .setType("codesec:index:UserRole")
      .setProperties(struct({ deploymentId: "1001", userId: "502", role: "ORG_ROLE_READONLY" }))
      .setTimeout(timeoutSeconds),
  );
  write.catch(() => undefined); // a test that cuts the connection expects no answer
  return write;
}

/** Ends with a warning: the UserRole of user 999, who has left; the emulator answers its write after `latencyMs`. */
function goneUserDelete(plugin: PluginProcess, h: EmulatorHandle, latencyMs: number) {
  h.control.addFault({ path: GONE_USER_PATH, latencyMs, count: 1 });
  const deleted = plugin.client.delete(
    new provider.DeleteRequest()
      .setUrn("urn:pulumi:test::codesec-test::codesec:index:UserRole::gone")
      .setType("codesec:index:UserRole")
      .setId("1001/999")
      .setProperties(
        struct({
          deploymentId: "1001",
          userId: "999",
          role: "ORG_ROLE_MEMBER",
          roleOnDestroy: "ORG_ROLE_READONLY",
          platform: h.baseUrl,
        }),
      ),
  );
  deleted.catch(() => undefined); // a test that cuts the connection expects no answer
  return deleted;
}

const GONE_USER_PATH = "/api/agent/deployments/1001/users/999/roles";
const GONE_USER_WARNING = "the user is no longer a member of deployment 1001";

/** Resolves once nothing accepts a connection on `port` any more: the plugin's server has begun to stop. */
async function refusesConnections(port: number): Promise<void> {
  const refused = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await refused()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`port ${port} still accepts connections 10 s later`);
}

/** Resolves to what ended first: the process, or `limitMs` (then it is still running). */
async function endedWithin(plugin: PluginProcess, limitMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    plugin.exited,
    new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), limitMs))),
  ]);
  clearTimeout(timer);
  return outcome === "still running" ? outcome : { code: outcome.code, signal: outcome.signal };
}

/** How the plugin first refuses a call, trying every 50 ms for up to 2 s: `refused <gRPC code>`. */
async function firstRefusal(plugin: PluginProcess): Promise<string> {
  for (const deadline = Date.now() + 2000; Date.now() < deadline;) {
    const code = await plugin.client.getPluginInfo(new Empty()).then(
      () => undefined,
      (error: { code?: number }) => error.code,
    );
    if (code !== undefined) return `refused ${code}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return "never refused";
}

/** How soon Cancel answers: at once, whatever is under way (the engine gives it 5 s, then reports a crash). */
const CANCEL_ANSWER_MS = 1000;
/** How soon the process ends on SIGINT when no call of its own is under way: well within the engine's 5 s. */
const STOP_WITHIN_MS = 3000;
/**
 * The grace once the engine is gone, as the process's environment shortens it (CODESEC_ENGINE_GONE_GRACE_MS)
 * for the test that waits it out, not the default's 30 s (tests/unit/native.shutdown.test.ts holds the
 * default); the other tests keep the default, longer than their writes.
 */
const GRACE_MS = 3000;

/**
 * An HTTP/2 stream to the plugin's port that asks for a gRPC method and never sends its request's end: a
 * session the server cannot close gracefully, as a client that went quiet leaves it.
 */
function openStreamThatNeverEnds(port: number): { close(): void } {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => undefined); // the plugin ends the session when it stops
  const stream = session.request({
    ":method": "POST",
    ":path": "/pulumirpc.ResourceProvider/GetPluginInfo",
    "content-type": "application/grpc",
    te: "trailers",
  });
  stream.on("error", () => undefined);
  return { close: () => session.destroy() };
}

describe("native plugin: how its process ends", function () {
  this.timeout(60_000);
  const emulator = useEmulator();
  let plugin: PluginProcess | undefined;
  let dir: string;
  let bundle: PluginEntry;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "codesec-shutdown-"));
    bundle = bundledPlugin(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  afterEach(async () => {
    await plugin?.close();
    plugin = undefined;
  });

  /**
   * The plugin, configured against the emulator; `graceMs` (CODESEC_ENGINE_GONE_GRACE_MS) shortens its
   * grace once the engine is gone; `fromSource` starts it through ts-node, so that its process's coverage
   * counts on the sources.
   */
  async function startConfigured(
    options: { stdin?: "pipe" | "ignore"; graceMs?: number; fromSource?: boolean } = {},
  ): Promise<PluginProcess> {
    const { graceMs, fromSource, ...spawnOptions } = options;
    plugin = await spawnPlugin({
      ...spawnOptions,
      entry: fromSource ? PLUGIN_FROM_SOURCE : bundle,
      env: graceMs === undefined ? {} : { CODESEC_ENGINE_GONE_GRACE_MS: String(graceMs) },
    });
    const h = emulator();
    await configure(plugin.client, { baseUrl: h.baseUrl, token: secret(h.apiToken) });
    return plugin;
  }

  /** When the role write was seen applied: its answer comes LATENCY_MS after, no earlier. */
  async function appliedAt(): Promise<number> {
    const roleOf502 = () =>
      emulator()
        .control.state()
        .users.find((u) => u.id === "502")?.roles["1001"];
    await waitFor("the role write to be applied", () => roleOf502() === "ORG_ROLE_READONLY", 10_000);
    return Date.now();
  }

  /** The process ended 0, and not before the write applied at `applied` could answer. */
  async function expectEndedAfterTheWrite(p: PluginProcess, applied: number): Promise<void> {
    const ended = await endedWithin(p, 20_000);
    const waited = Date.now() - applied;
    expect(ended).to.deep.equal({ code: 0, signal: null });
    expect(waited, "ms from the write's application to the process's end").to.be.at.least(LATENCY_MS - 500);
  }

  it("on SIGINT, a write under way answers, no new call is taken, and the process exits 0", async () => {
    const p = await startConfigured();
    const write = slowRoleWrite(p, emulator());
    let answered = false;
    void write.then(
      () => (answered = true),
      () => (answered = true),
    );
    const applied = await appliedAt();
    p.child.kill("SIGINT");
    const refused = await firstRefusal(p);
    const refusedWhileWriting = !answered;
    expect(refused).to.match(/^refused/);
    expect(refusedWhileWriting, "refused before the write answered").to.equal(true);
    expect((await write).getId()).to.equal("1001/502");
    await expectEndedAfterTheWrite(p, applied);
  });

  it("on SIGINT, a call under way still tells the engine what it has to say, before the process exits", async () => {
    const p = await startConfigured();
    const deleted = goneUserDelete(p, emulator(), 1500);
    await waitFor("the delete to reach the platform", () =>
      emulator()
        .control.requests()
        .some((r) => r.path === GONE_USER_PATH),
    );
    p.child.kill("SIGINT");
    await deleted;
    expect(await endedWithin(p, 20_000)).to.deep.equal({ code: 0, signal: null });
    expect(p.logs.map((l) => l.message).filter((m) => m.includes(GONE_USER_WARNING))).to.have.length(1);
    expect((await p.exited).stderr, "through the engine, not its stderr").not.to.include(GONE_USER_WARNING);
  });

  it("on SIGINT after the engine closed its connection (as it does), a write under way still finishes", async () => {
    const p = await startConfigured();
    void slowRoleWrite(p, emulator());
    const applied = await appliedAt();
    p.dropConnection();
    p.child.kill("SIGINT");
    await expectEndedAfterTheWrite(p, applied);
  });

  it("a second signal ends it at once, without waiting for the write", async () => {
    const p = await startConfigured();
    void slowRoleWrite(p, emulator(), 20_000);
    await appliedAt();
    p.child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 200));
    p.child.kill("SIGINT");
    expect(await endedWithin(p, 5000)).to.deep.equal({ code: 130, signal: null });
  });

  it("when the CLI is killed, the calls under way finish, one that logs included, and it exits 0 by itself", async () => {
    const p = await startConfigured();
    const h = emulator();
    void slowRoleWrite(p, h);
    // Its warning comes after the engine went: the Log service is gone, and so is the reader of stderr.
    void goneUserDelete(p, h, 2000);
    const applied = await appliedAt();
    await p.engineGone();
    const goneAt = Date.now();
    await expectEndedAfterTheWrite(p, applied);
    const deletes = h.control.requests().filter((r) => r.path === GONE_USER_PATH);
    expect(deletes.map((r) => ({ status: r.status, pending: r.pending }))).to.deep.equal([
      { status: 404, pending: undefined },
    ]);
    expect(Date.parse(deletes[0].at) + 2000, "the delete answered after the engine went").to.be.above(goneAt);
  });

  it("when the CLI is killed, a call with a longer deadline gets the grace at most, then the process exits 1", async () => {
    // From source: this process's coverage (main.ts, the stop's, the grace's) counts on the sources.
    const p = await startConfigured({ graceMs: GRACE_MS, fromSource: true });
    // customTimeouts of 10 minutes, and an answer a minute away, far beyond the grace: the call would run
    // on, so it is the grace that ends the process (it is cut then, long before the answer).
    void slowRoleWrite(p, emulator(), 60_000, { timeoutSeconds: 600, attempts: 4 });
    await appliedAt();
    await p.engineGone();
    const goneAt = Date.now();
    const ended = await endedWithin(p, GRACE_MS + 15_000);
    const waited = Date.now() - goneAt;
    expect(ended, "ended by itself, cut short").to.deep.equal({ code: 1, signal: null });
    expect(waited, "ms from the engine's end to the process's").to.be.at.least(GRACE_MS - 500);
  });

  it("a signal after the engine went is the first, not the second: the write under way still finishes", async () => {
    const p = await startConfigured();
    void slowRoleWrite(p, emulator());
    const applied = await appliedAt();
    await p.engineGone();
    await refusesConnections(p.port); // the end of stdin has been seen: the stop has begun
    p.child.kill("SIGTERM"); // a runner's clean-up after it killed the CLI
    await expectEndedAfterTheWrite(p, applied);
  });

  it("Cancel answers at once, while a write is under way", async () => {
    const p = await startConfigured();
    void slowRoleWrite(p, emulator());
    await appliedAt();
    const asked = Date.now();
    await p.client.cancel(new Empty());
    expect(Date.now() - asked, "ms until Cancel answered").to.be.below(CANCEL_ANSWER_MS);
  });

  it("on SIGINT, a stream left open by a client (no call of the plugin's) does not keep it: it exits 0 at once", async () => {
    const p = await startConfigured();
    const stream = openStreamThatNeverEnds(p.port);
    await p.client.cancel(new Empty());
    p.child.kill("SIGINT");
    expect(await endedWithin(p, STOP_WITHIN_MS)).to.deep.equal({ code: 0, signal: null });
    stream.close();
  });

  it("a grace its environment sets out of bounds is ignored, said once on stderr; the plugin serves on", async () => {
    const p = await startConfigured({ graceMs: 50 });
    const info = await p.client.getPluginInfo(new Empty());
    expect(info.getVersion()).to.match(/^\d+\.\d+\.\d+/);
    p.child.kill("SIGTERM");
    expect(await endedWithin(p, 15_000)).to.deep.equal({ code: 0, signal: null });
    const warnings = (await p.exited).stderr.split("\n").filter((line) => line.includes("GRACE_MS"));
    expect(warnings).to.deep.equal([
      'pulumi-codesec: CODESEC_ENGINE_GONE_GRACE_MS="50" is ignored (below the minimum of 100 ms): ' +
        "the calls under way get 30 s once the Pulumi engine is gone.",
    ]);
  });

  it("with no stdin pipe (started by hand), it keeps serving until SIGTERM, then exits 0", async () => {
    const p = await startConfigured({ stdin: "ignore" });
    expect(await endedWithin(p, 1000)).to.equal("still running");
    const info = await p.client.getPluginInfo(new Empty());
    expect(info.getVersion()).to.match(/^\d+\.\d+\.\d+/);
    p.child.kill("SIGTERM");
    expect(await endedWithin(p, 15_000)).to.deep.equal({ code: 0, signal: null });
  });
});
