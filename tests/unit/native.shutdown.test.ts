/**
 * The order of the plugin's stop (provider/native/shutdown.ts) with a stand-in process: which signal is
 * the first, what the end of stdin does, when the process exits. The same stop in a real process, against
 * the emulator: tests/integration/native.shutdown.test.ts.
 */
import { expect } from "chai";
import { newPluginState } from "../../provider/native/pluginState";
import type { PluginServer } from "../../provider/native/server";
import { ENGINE_GONE_GRACE_MS, engineGoneGraceMs, MIN_ENGINE_GONE_GRACE_MS } from "../../provider/engineGone";
import { stopWithTheEngine } from "../../provider/native/shutdown";
import { standInProcess } from "../support/standInProcess";

/** A server whose close resolves when the test says, stopped with a stand-in process. */
function standIn(options: { pipe?: boolean; graceMs?: number } = {}) {
  let finishClose!: () => void;
  const closing = new Promise<void>((resolve) => (finishClose = resolve));
  let closeCalls = 0;
  const server: PluginServer = {
    port: 0,
    state: newPluginState(),
    close: () => {
      closeCalls++;
      return closing;
    },
  };
  const proc = standInProcess(options);
  stopWithTheEngine(server, proc.hooks);
  return { ...proc, server, finishClose, closeCalls: () => closeCalls };
}

describe("native plugin: the order of its stop", () => {
  it("SIGINT: no new call, the server closes, and the process exits 0 once it has", async () => {
    const p = standIn();
    p.signals.emit("SIGINT");
    expect(p.server.state.cancelled).to.equal(true);
    expect(p.closeCalls()).to.equal(1);
    await p.settle();
    expect(p.exits, "not before the calls under way have finished").to.deep.equal([]);
    p.finishClose();
    await p.settle();
    expect(p.exits).to.deep.equal([0]);
  });

  it("a second signal exits at once with 128 + its number", async () => {
    const p = standIn();
    p.signals.emit("SIGINT");
    p.signals.emit("SIGTERM");
    expect(p.exits).to.deep.equal([143]);
    expect(p.closeCalls()).to.equal(1);
  });

  it("the end of stdin stops it; a signal after that is the first, so the calls still finish", async () => {
    const p = standIn();
    p.pipe.end();
    await p.settle();
    expect(p.closeCalls()).to.equal(1);
    p.signals.emit("SIGTERM");
    expect(p.exits, "the signal did not cut the calls").to.deep.equal([]);
    p.signals.emit("SIGTERM");
    expect(p.exits, "a second signal still exits at once").to.deep.equal([143]);
    p.finishClose();
    await p.settle();
    expect(p.exits).to.deep.equal([143, 0]);
  });

  it("without a stdin pipe, only a signal stops it", async () => {
    const p = standIn({ pipe: false });
    p.pipe.end();
    await p.settle();
    expect(p.closeCalls()).to.equal(0);
    p.signals.emit("SIGINT");
    expect(p.closeCalls()).to.equal(1);
  });

  it("once the engine is gone, calls still under way after the grace are cut: exit 1, said on stderr", async () => {
    const p = standIn();
    p.server.state.calls.add(new Promise(() => undefined)); // a write that never answers
    p.pipe.end();
    await p.settle();
    expect(ENGINE_GONE_GRACE_MS, "a call's default deadline").to.equal(30_000);
    expect(p.timers.map((t) => t.ms)).to.deep.equal([ENGINE_GONE_GRACE_MS]);
    expect(p.exits, "the calls get the grace first").to.deep.equal([]);
    p.timers[0].action();
    expect(p.exits).to.deep.equal([1]);
    expect(p.stderr()).to.match(
      /^pulumi-codesec: the Pulumi engine is gone and 1 call\(s\) to the platform were still under way 30 s later: .*Recovery after a kill/,
    );
  });

  it("a grace the process was given (a test's shorter one) bounds the calls instead, and its message says so", async () => {
    const p = standIn({ graceMs: 2500 });
    p.server.state.calls.add(new Promise(() => undefined));
    p.pipe.end();
    await p.settle();
    expect(p.timers.map((t) => t.ms)).to.deep.equal([2500]);
    p.timers[0].action();
    expect(p.exits).to.deep.equal([1]);
    expect(p.stderr()).to.include("still under way 2.5 s later");
  });

  it("the environment can shorten the grace (CODESEC_ENGINE_GONE_GRACE_MS) down to 100 ms, never lengthen it", () => {
    const grace = (value?: string) => {
      const warnings: string[] = [];
      const ms = engineGoneGraceMs(
        value === undefined ? {} : { CODESEC_ENGINE_GONE_GRACE_MS: value },
        (warning) => warnings.push(warning),
      );
      return { ms, warnings };
    };
    expect(MIN_ENGINE_GONE_GRACE_MS).to.equal(100);
    expect(grace()).to.deep.equal({ ms: ENGINE_GONE_GRACE_MS, warnings: [] });
    expect(grace("")).to.deep.equal({ ms: ENGINE_GONE_GRACE_MS, warnings: [] });
    for (const [value, ms] of [
      ["2000", 2000],
      ["100", 100],
      ["30000", ENGINE_GONE_GRACE_MS],
    ] as const) {
      expect(grace(value), value).to.deep.equal({ ms, warnings: [] });
    }
    const ignored: [string, string][] = [
      ["0", "below the minimum of 100 ms"],
      ["99", "below the minimum of 100 ms"],
      ["-5", "not a whole number of milliseconds"],
      ["1.5", "not a whole number of milliseconds"],
      ["2s", "not a whole number of milliseconds"],
      ["30001", "it can only shorten the grace"],
      ["600000", "it can only shorten the grace"],
    ];
    for (const [value, why] of ignored) {
      const { ms, warnings } = grace(value);
      expect(ms, value).to.equal(ENGINE_GONE_GRACE_MS);
      expect(warnings, value).to.have.length(1);
      expect(warnings[0], value).to.equal(
        `pulumi-codesec: CODESEC_ENGINE_GONE_GRACE_MS=${JSON.stringify(value)} is ignored (${why}): ` +
          "the calls under way get 30 s once the Pulumi engine is gone.\n",
      );
    }
  });

  it("calls that finish within the grace end the process with 0, and the grace's end then does nothing", async () => {
    const p = standIn();
    p.pipe.end();
    await p.settle();
    p.finishClose();
    await p.settle();
    expect(p.exits).to.deep.equal([0]);
    p.timers[0].action();
    expect(p.exits).to.deep.equal([0]);
    expect(p.stderr()).to.equal("");
  });

  it("a signal with the engine still there sets no grace (the engine's SIGKILL bounds it); the engine's end then does", async () => {
    const p = standIn();
    p.signals.emit("SIGINT");
    await p.settle();
    expect(p.timers).to.deep.equal([]);
    p.pipe.end();
    await p.settle();
    expect(p.timers.map((t) => t.ms)).to.deep.equal([ENGINE_GONE_GRACE_MS]);
    expect(p.closeCalls(), "one stop").to.equal(1);
  });

  it("a write error on stdout or stderr (the engine's reader gone) does not end the process", () => {
    const p = standIn();
    for (const output of p.outputs) {
      // An 'error' nobody listens to would be thrown, and end the process.
      expect(() =>
        output.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" })),
      ).not.to.throw();
    }
  });
});
