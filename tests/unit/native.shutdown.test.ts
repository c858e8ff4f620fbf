/**
 * The order of the plugin's stop (provider/native/shutdown.ts) with a stand-in process: which signal is
 * the first, what the end of stdin does, when the process exits. The same stop in a real process, against
 * the emulator: tests/integration/native.shutdown.test.ts.
 */
import { expect } from "chai";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { newPluginState } from "../../provider/native/pluginState";
import type { PluginServer } from "../../provider/native/server";
import { stopWithTheEngine } from "../../provider/native/shutdown";

/** A server whose close resolves when the test says, and a process that records its exits. */
function standIn(options: { pipe?: boolean } = {}) {
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
  const signals = new EventEmitter();
  const pipe = new PassThrough();
  const outputs = [new PassThrough(), new PassThrough()];
  const exits: number[] = [];
  stopWithTheEngine(server, {
    onSignal: (signal, listener) => signals.on(signal, listener),
    enginePipe: () => (options.pipe === false ? undefined : pipe),
    outputs,
    exit: (code) => exits.push(code),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { server, signals, pipe, outputs, exits, finishClose, closeCalls: () => closeCalls, settle };
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
