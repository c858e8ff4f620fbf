/**
 * The bench's per-process CPU record (bench/support/processCpu.ts and its preload): a Pulumi program and a
 * provider process each append their CPU when they end, whether they exit or the engine stops them with
 * SIGINT (and then still end by that signal, as they would have, even when the line cannot be written);
 * any other Node.js process records nothing and runs as before; a take sums per role and empties the
 * record, refuses a line it did not write, and a phase's record without a process it runs is refused.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nativeFigures, type SizeRun } from "../../bench/engineFloor";
import { PHASES } from "../../bench/support/lifecycle";
import {
  checkedCommandCpu,
  processCpuEnv,
  takeProcessCpu,
  type CommandCpu,
} from "../../bench/support/processCpu";

/** Where each kind of process's script sits, as in a bench stack's node_modules, this clone and a release. */
const SCRIPTS = {
  program: "node_modules/@pulumi/pulumi/cmd/run/index.js",
  dynamicProvider: "node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
  nativePlugin: "dist/provider/native/main.js",
  releasedPlugin: "plugins/resource-codesec-v0.5.0/pulumi-resource-codesec.js",
  policyPack: "node_modules/@pulumi/pulumi/cmd/run-policy-pack/index.js",
  other: "node_modules/npm/bin/npm-cli.js",
};

interface Behaviour {
  /** `exit`: ends by itself; `wait`: says "ready" and waits to be stopped with SIGINT. */
  end: "exit" | "wait";
  /** A SIGINT listener of the process's own, which exits with code 7. */
  ownListener?: boolean;
}

/** Burns 150 ms of CPU (not of wall time: the machine may be busy), then behaves as asked. */
function scriptText({ end, ownListener }: Behaviour): string {
  return [
    "const start = process.cpuUsage();",
    "while (process.cpuUsage(start).user < 150000) {}",
    ownListener ? 'process.on("SIGINT", () => process.exit(7));' : "",
    'process.stdout.write("ready\\n");',
    end === "wait" ? "setInterval(() => {}, 1000);" : "",
  ].join("\n");
}

describe("bench: process CPU", () => {
  let dir: string;
  let log: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "codesec-cpu-test-"));
    log = path.join(dir, "cpu.log");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(
    script: string,
    behaviour: Behaviour,
    logFile = log,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
    const file = path.join(dir, script);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, scriptText(behaviour));
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, ...processCpuEnv(logFile) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      if (behaviour.end === "wait" && chunk.toString().includes("ready")) child.kill("SIGINT");
    });
    return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stderr })));
  }

  it("records a program that exits, as the program's CPU", async () => {
    const ended = await run(SCRIPTS.program, { end: "exit" });
    expect(ended).to.deep.include({ code: 0, signal: null });
    const cpu = takeProcessCpu(log);
    expect(cpu.processes).to.deep.equal({ program: 1, provider: 0 });
    expect(cpu.seconds.program).to.be.within(0.15, 5); // it burned 150 ms
  });

  it("records each kind of provider stopped by SIGINT, which still ends by that signal", async () => {
    for (const script of [SCRIPTS.dynamicProvider, SCRIPTS.nativePlugin, SCRIPTS.releasedPlugin]) {
      const ended = await run(script, { end: "wait" });
      expect(ended, script).to.deep.include({ code: null, signal: "SIGINT" });
      const cpu = takeProcessCpu(log);
      expect(cpu.processes, script).to.deep.equal({ program: 0, provider: 1 });
      expect(cpu.seconds.provider, script).to.be.within(0.15, 5);
    }
  });

  it("leaves a process's own SIGINT listener in charge, and records its CPU once", async () => {
    const ended = await run(SCRIPTS.dynamicProvider, { end: "wait", ownListener: true });
    expect(ended).to.deep.include({ code: 7, signal: null });
    expect(takeProcessCpu(log).processes).to.deep.equal({ program: 0, provider: 1 });
  });

  it("still ends a stopped provider by its signal when the line cannot be written, and says so", async () => {
    const ended = await run(SCRIPTS.dynamicProvider, { end: "wait" }, path.join(dir, "missing", "cpu.log"));
    expect(ended).to.deep.include({ code: null, signal: "SIGINT" });
    expect(ended.stderr).to.match(/bench process CPU: not recorded: ENOENT/);
  });

  it("records nothing for any other Node.js process, which runs as before", async () => {
    for (const script of [SCRIPTS.policyPack, SCRIPTS.other]) {
      const ended = await run(script, { end: "exit" });
      expect(ended, script).to.deep.equal({ code: 0, signal: null, stderr: "" });
    }
    expect(takeProcessCpu(log).processes).to.deep.equal({ program: 0, provider: 0 });
  });

  it("sums a take per role and empties the record; a missing record is no CPU", () => {
    expect(takeProcessCpu(log).processes).to.deep.equal({ program: 0, provider: 0 });
    const lines = [
      '{"role":"program","cpuMicros":1500000}',
      '{"role":"provider","cpuMicros":250000}',
      '{"role":"program","cpuMicros":500000}',
    ];
    writeFileSync(log, lines.join("\n") + "\n");
    expect(takeProcessCpu(log)).to.deep.equal({
      seconds: { program: 2, provider: 0.25 },
      processes: { program: 2, provider: 1 },
    });
    expect(takeProcessCpu(log).processes).to.deep.equal({ program: 0, provider: 0 }); // emptied
    writeFileSync(log, lines[1] + "\n", { flag: "a" }); // a line after a take goes to the next one
    expect(takeProcessCpu(log).processes).to.deep.equal({ program: 0, provider: 1 });
  });

  it("refuses a line the preload does not write", () => {
    writeFileSync(log, '{"role":"engine","cpuMicros":1}\n');
    expect(() => takeProcessCpu(log)).to.throw(/not a process CPU record: \{"role":"engine"/);
  });

  it("refuses a phase's record that lacks the provider, or the program where the phase runs one", () => {
    const cpu = (program: number, provider: number): CommandCpu => ({
      seconds: { program: program * 0.5, provider: provider * 0.5 },
      processes: { program, provider },
    });
    expect(checkedCommandCpu(cpu(1, 1), "up (create)", "native", true)).to.deep.equal(cpu(1, 1));
    expect(checkedCommandCpu(cpu(0, 1), "refresh", "native", false)).to.deep.equal(cpu(0, 1));
    expect(() => checkedCommandCpu(cpu(1, 0), "refresh", "native", false)).to.throw(
      "native, refresh: no CPU record of the provider process",
    );
    expect(() => checkedCommandCpu(cpu(0, 0), "preview (create)", "codesec", true)).to.throw(
      "codesec, preview (create): no CPU record of the provider or the program process",
    );
  });

  it("publishes native / dynamic CPU of the provider on the targeted phases, and of the program where one runs", () => {
    const times = Object.fromEntries(PHASES.map((phase) => [phase, [1, 1, 1]]));
    const cpuOf = (program: number, provider: number) =>
      Object.fromEntries(
        PHASES.map((phase) => [
          phase,
          [0, 1, 2].map(() => ({
            seconds: { program, provider },
            processes: { program: 1, provider: 1 },
          })),
        ]),
      );
    const run = {
      n: 200,
      repetitions: 3,
      plannedRepetitions: 3,
      times: { codesec: times, native: times, noop: times, http: times, map: times },
      cpu: { codesec: cpuOf(4, 2), native: cpuOf(5, 1), noop: {}, http: {}, map: {} },
    } as unknown as SizeRun;
    const cpuFigures = nativeFigures(run).filter((f) => f.name.includes("process CPU"));
    expect(cpuFigures.map((f) => [f.name, f.value])).to.deep.equal([
      ["N=200 preview (create), provider process CPU, native / dynamic", 0.5],
      ["N=200 preview (create), program process CPU, native / dynamic", 1.25],
      ["N=200 preview, no change, provider process CPU, native / dynamic", 0.5],
      ["N=200 preview, no change, program process CPU, native / dynamic", 1.25],
      ["N=200 up, no change, provider process CPU, native / dynamic", 0.5],
      ["N=200 up, no change, program process CPU, native / dynamic", 1.25],
      ["N=200 refresh, provider process CPU, native / dynamic", 0.5],
    ]);
    expect(cpuFigures.every((f) => f.target === undefined)).to.equal(true);
  });
});
