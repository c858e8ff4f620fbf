/**
 * How Pulumi's dynamic-provider host ends once the engine is gone, while it runs the dynamic resources
 * (provider/dynamic/hostShutdown.ts), with a stand-in process; which processes it is installed in:
 * tests/integration/dynamic.hostShutdown.test.ts; through the real CLI: tests/e2e/killedCli.test.ts.
 */
import { expect } from "chai";
import { ENGINE_GONE_GRACE_MS } from "../../provider/engineGone";
import { run } from "../../provider/dynamic/index";
import {
  isDynamicProviderHost,
  newHostCalls,
  trackCall,
  trackCallIn,
  watchTheEngine,
} from "../../provider/dynamic/hostShutdown";
import { standInProcess } from "../support/standInProcess";

/** A host's calls, watched in a stand-in process (no signal handler: the host's signals are Pulumi's). */
function standIn(options: { pipe?: boolean } = {}) {
  const host = newHostCalls();
  const proc = standInProcess(options);
  watchTheEngine(host, proc.hooks);
  return { ...proc, host, calls: host.underWay };
}

/** A call under way and the function that settles it. */
function pendingCall() {
  let settle!: () => void;
  const call = new Promise<void>((resolve) => (settle = resolve));
  return { call, settle };
}

describe("dynamic resources: Pulumi's dynamic-provider host ends with the engine", () => {
  it("knows the host by its script, as the launcher starts it, and nothing else", () => {
    expect(isDynamicProviderHost(require.resolve("@pulumi/pulumi/cmd/dynamic-provider"))).to.equal(true);
    for (const host of [
      "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider",
      "/p/node_modules/.pnpm/@pulumi+pulumi@3.259.0/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
      "C:\\p\\node_modules\\@pulumi\\pulumi\\cmd\\dynamic-provider\\index.js",
    ]) {
      expect(isDynamicProviderHost(host), host).to.equal(true);
    }
    for (const other of [
      "/p/node_modules/@pulumi/pulumi/cmd/run/index.js", // a Pulumi program
      "/p/node_modules/mocha/bin/mocha.js",
      "/p/dynamic-provider/index.js",
      undefined,
    ]) {
      expect(isDynamicProviderHost(other), String(other)).to.equal(false);
    }
  });

  it("a call that had not started when the engine went is refused, without running", async () => {
    const p = standIn();
    const { call, settle } = pendingCall();
    const first = trackCallIn(p.host, () => call);
    p.pipe.end();
    await p.settle();
    let ran = false;
    const late = trackCallIn(p.host, () => {
      ran = true;
      return Promise.resolve();
    });
    const refusal = await late.then(
      () => "started",
      (error: Error) => error.message,
    );
    expect(refusal).to.match(/the Pulumi engine is gone, so this call does not start/);
    expect(ran).to.equal(false);
    expect(p.exits, "the call under way still finishes first").to.deep.equal([]);
    settle();
    await first;
    await p.settle();
    expect(p.exits).to.deep.equal([0]);
  });

  it("with no call under way, it exits 0 as soon as the engine is gone; no signal handler is added", async () => {
    const p = standIn();
    expect(p.signals.eventNames(), "the host's signals are Pulumi's").to.deep.equal([]);
    await p.settle();
    expect(p.exits, "not while the engine is there").to.deep.equal([]);
    p.pipe.end();
    await p.settle();
    await p.settle();
    expect(p.exits).to.deep.equal([0]);
  });

  it("a call under way finishes first, then it exits 0; the grace's end then does nothing", async () => {
    const p = standIn();
    const { call, settle } = pendingCall();
    p.calls.add(call);
    p.pipe.end();
    await p.settle();
    expect(p.timers.map((t) => t.ms)).to.deep.equal([ENGINE_GONE_GRACE_MS]);
    expect(p.exits, "not before the call has finished").to.deep.equal([]);
    p.calls.delete(call);
    settle();
    await p.settle();
    await p.settle();
    expect(p.exits).to.deep.equal([0]);
    p.timers[0].action();
    expect(p.exits).to.deep.equal([0]);
    expect(p.stderr()).to.equal("");
  });

  it("a call that does not finish within the grace is cut: exit 1, said on stderr", async () => {
    const p = standIn();
    p.calls.add(new Promise(() => undefined));
    p.pipe.end();
    await p.settle();
    p.timers[0].action();
    expect(p.exits).to.deep.equal([1]);
    expect(p.stderr()).to.match(/^pulumi-codesec: the Pulumi engine is gone and 1 call\(s\) to the platform/);
  });

  it("output errors are the host's own until the engine is gone, and dropped after", async () => {
    const p = standIn();
    const epipe = () => Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    expect(() => p.outputs[1].emit("error", epipe()), "no listener of ours before").to.throw("EPIPE");
    p.calls.add(new Promise(() => undefined));
    p.pipe.end();
    await p.settle();
    for (const output of p.outputs) expect(() => output.emit("error", epipe())).not.to.throw();
  });

  it("without a stdin pipe, it watches nothing", async () => {
    const p = standIn({ pipe: false });
    p.pipe.end();
    await p.settle();
    expect(p.exits).to.deep.equal([]);
    expect(p.timers).to.deep.equal([]);
  });

  it("counts a call until it settles, succeeded or failed, in the one set every copy of the package shares", async () => {
    const shared = (globalThis as Record<symbol, { underWay: Set<Promise<unknown>> } | undefined>)[
      Symbol.for("pulumi-codesec.dynamicHost.v1")
    ];
    expect(shared, "made when the module loaded").not.to.equal(undefined);
    const ok = pendingCall();
    const tracked = trackCall(() => ok.call);
    expect(tracked, "the call's own promise").to.equal(ok.call);
    const failing = trackCall(() => Promise.reject(new Error("refused")));
    expect([...shared!.underWay]).to.include.members([tracked, failing]);
    await failing.catch(() => undefined);
    await Promise.resolve();
    expect([...shared!.underWay]).not.to.include(failing);
    expect([...shared!.underWay]).to.include(tracked);
    ok.settle();
    await tracked;
    await Promise.resolve();
    expect([...shared!.underWay]).not.to.include(tracked);
  });

  it("counts the calls of the kinds' entries and of the legacy entry (stacks of 0.1.0 to 0.3.0)", async () => {
    const shared = (globalThis as Record<symbol, { underWay: Set<Promise<unknown>> }>)[
      Symbol.for("pulumi-codesec.dynamicHost.v1")
    ];
    const entry = require("../../provider/generated/engineEntries/UserRole") as {
      diff(...args: unknown[]): Promise<unknown>;
    };
    const args = ["1001/502", { role: "ORG_ROLE_MEMBER" }, { role: "ORG_ROLE_MEMBER" }];
    for (const [name, call] of [
      ["the kind's entry", () => entry.diff(...args)],
      ["the legacy entry", () => run("UserRole", "diff", args)],
    ] as const) {
      const before = shared.underWay.size;
      const underWay = call();
      expect(shared.underWay.size, name).to.equal(before + 1);
      await underWay.catch(() => undefined);
      await Promise.resolve();
      expect(shared.underWay.size, name).to.equal(before);
    }
  });
});
