/**
 * How the native plugin's process ends (provider/native/shutdown.ts), in a process of its own started as
 * the engine starts it: on the engine's SIGINT it lets a write under way answer, then exits 0; a second
 * signal ends it at once; when the engine is gone (the end of its stdin) it exits by itself; with no
 * stdin pipe it keeps serving.
 */
import { expect } from "chai";
import { useEmulator } from "../support/emulator";
import {
  configure,
  Empty,
  provider,
  secret,
  spawnPlugin,
  struct,
  type PluginProcess,
} from "../support/nativePlugin";
import { waitFor } from "../support/waitFor";
import type { EmulatorHandle } from "../../emulator/index";

/** A role write of user 502 that the emulator applies at once and answers `latencyMs` later. */
function slowRoleWrite(plugin: PluginProcess, h: EmulatorHandle, latencyMs: number) {
  h.control.addFault({ operation: "updateUserRole", phase: "after", latencyMs, count: 1 });
  return plugin.client.create(
    new provider.CreateRequest()
      .setUrn("urn:pulumi:test::codesec-test::codesec:index:UserRole::member")
      .setType("codesec:index:UserRole")
      .setProperties(struct({ deploymentId: "1001", userId: "502", role: "ORG_ROLE_READONLY" })),
  );
}

/** Resolves to what ended first: the process, or `limitMs` (then it is still running). */
async function endedWithin(plugin: PluginProcess, limitMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    plugin.exited,
    new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), limitMs))),
  ]);
  clearTimeout(timer);
  return outcome;
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

describe("native plugin: how its process ends", function () {
  this.timeout(60_000);
  const emulator = useEmulator();
  let plugin: PluginProcess | undefined;

  afterEach(async () => {
    await plugin?.close();
    plugin = undefined;
  });

  async function startConfigured(options?: { stdin?: "pipe" | "ignore" }): Promise<PluginProcess> {
    plugin = await spawnPlugin(options);
    const h = emulator();
    await configure(plugin.client, { baseUrl: h.baseUrl, token: secret(h.apiToken) });
    return plugin;
  }

  const roleOf502 = () =>
    emulator()
      .control.state()
      .users.find((u) => u.id === "502")?.roles["1001"];

  it("on SIGINT, a write under way answers, no new call starts, and the process exits 0", async () => {
    const p = await startConfigured();
    const write = slowRoleWrite(p, emulator(), 3000);
    let answered = false;
    void write.then(
      () => (answered = true),
      () => (answered = true),
    );
    await waitFor("the role write to be applied", () => roleOf502() === "ORG_ROLE_READONLY", 10_000);
    p.child.kill("SIGINT");
    // A new call is refused while the write is still waiting for its answer.
    const refused = await firstRefusal(p);
    const refusedWhileWriting = !answered;
    expect(refused).to.match(/^refused/);
    expect(refusedWhileWriting, "refused before the write answered").to.equal(true);
    const created = await write;
    expect(created.getId()).to.equal("1001/502");
    const ended = await p.exited;
    expect({ code: ended.code, signal: ended.signal }).to.deep.equal({ code: 0, signal: null });
  });

  it("a second signal ends it at once, without waiting for the write", async () => {
    const p = await startConfigured();
    const write = slowRoleWrite(p, emulator(), 20_000);
    write.catch(() => undefined); // cut off by the second signal, as asked
    await waitFor("the role write to be applied", () => roleOf502() === "ORG_ROLE_READONLY", 10_000);
    p.child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 200));
    p.child.kill("SIGINT");
    const ended = await endedWithin(p, 5000);
    expect(ended).to.not.equal("still running");
    expect(ended === "still running" ? undefined : { code: ended.code, signal: ended.signal }).to.deep.equal({
      code: 130,
      signal: null,
    });
  });

  it("when the engine is gone (its stdin ends), it exits 0 by itself", async () => {
    const p = await startConfigured();
    p.child.stdin!.end();
    const ended = await endedWithin(p, 15_000);
    expect(ended, "the plugin still runs 15 s after the engine went").to.not.equal("still running");
    expect(ended === "still running" ? undefined : ended.code).to.equal(0);
  });

  it("with no stdin pipe (started by hand), it keeps serving until SIGTERM, then exits 0", async () => {
    const p = await startConfigured({ stdin: "ignore" });
    expect(await endedWithin(p, 1000)).to.equal("still running");
    const info = await p.client.getPluginInfo(new Empty());
    expect(info.getVersion()).to.match(/^\d+\.\d+\.\d+/);
    p.child.kill("SIGTERM");
    const ended = await endedWithin(p, 15_000);
    expect(ended === "still running" ? ended : { code: ended.code, signal: ended.signal }).to.deep.equal({
      code: 0,
      signal: null,
    });
  });
});
