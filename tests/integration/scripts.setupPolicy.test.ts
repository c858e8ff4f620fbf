/**
 * scripts/setup-policy.sh's analyzer launcher, as the Pulumi CLI runs it (in the pack's folder, with the
 * engine's address and the pack's folder): it runs the pack's own policy-pack runner when the pack has
 * one, else policy/'s, in one Node.js process, with Node's compile cache on (every start after the first
 * reads the compiled code of the runner's and the pack's modules instead of compiling them again), unless
 * the caller chose a cache folder or turned the cache off.
 */
import { expect } from "chai";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";

const repoRoot = path.resolve(__dirname, "../..");
const RUNNER = "node_modules/@pulumi/pulumi/cmd/run-policy-pack/index.js";

describe("scripts/setup-policy.sh: the policy pack's launcher", function () {
  this.timeout(30_000);
  let scratch: string;
  let tools: string;
  let launcher: string;

  /** Runs the launcher in `cwd` as the CLI does, with `env` added. */
  function launch(cwd: string, env: NodeJS.ProcessEnv = {}) {
    const base = { ...process.env };
    delete base.NODE_COMPILE_CACHE;
    delete base.NODE_DISABLE_COMPILE_CACHE;
    return spawnSync(launcher, ["127.0.0.1:9", cwd], { cwd, env: { ...base, ...env }, encoding: "utf8" });
  }

  /** A pack folder whose own runner prints what it was started with; `under` nests it in a project. */
  function packWithRunner(under = ""): string {
    const project = path.join(scratch, `project-${Math.random().toString(36).slice(2)}`);
    const pack = path.join(project, under);
    mkdirSync(path.join(project, path.dirname(RUNNER)), { recursive: true });
    mkdirSync(pack, { recursive: true });
    writeFileSync(
      path.join(project, RUNNER),
      "console.log(JSON.stringify({ runner: __filename, args: process.argv.slice(2), cache: process.env.NODE_COMPILE_CACHE ?? null }));\n",
    );
    return pack;
  }

  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-setup-policy-"));
    tools = path.join(scratch, "tools");
    const setup = spawnSync("bash", [path.join(repoRoot, "scripts/setup-policy.sh")], {
      env: { ...process.env, CODESEC_TOOLS_DIR: tools },
      encoding: "utf8",
    });
    expect(setup.status, setup.stderr).to.equal(0);
    launcher = path.join(tools, "bin", "pulumi-analyzer-policy-codesec-nodejs");
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("runs the pack's own runner with the CLI's arguments and a compile cache in the tools folder", () => {
    const pack = packWithRunner();
    const run = launch(pack);
    expect(run.status, run.stderr).to.equal(0);
    const started = JSON.parse(run.stdout) as { runner: string; args: string[]; cache: string };
    expect(started.runner).to.equal(path.join(path.dirname(pack), path.basename(pack), RUNNER));
    expect(started.args).to.deep.equal(["127.0.0.1:9", pack]);
    expect(started.cache).to.equal(path.join(tools, "node-compile-cache"));
  });

  it("finds the runner of a project that holds the pack in a subfolder, as Node resolves it", () => {
    const pack = packWithRunner("policy");
    const run = launch(pack);
    expect(run.status, run.stderr).to.equal(0);
    expect((JSON.parse(run.stdout) as { runner: string }).runner).to.equal(
      path.join(path.dirname(pack), RUNNER),
    );
  });

  it("starts one Node.js process: nothing but the runner", () => {
    const pack = packWithRunner();
    // Every Node.js process started under NODE_OPTIONS loads this preload, which appends a line.
    const starts = path.join(scratch, "node-starts.log");
    const preload = path.join(scratch, "count-start.js");
    writeFileSync(preload, `require("fs").appendFileSync(${JSON.stringify(starts)}, "start\\n");\n`);
    const run = launch(pack, { NODE_OPTIONS: `--require ${preload}` });
    expect(run.status, run.stderr).to.equal(0);
    expect(readFileSync(starts, "utf8")).to.equal("start\n");
  });

  it("keeps a compile cache folder the caller chose, and no cache when the caller turned it off", () => {
    const pack = packWithRunner();
    const chosen = path.join(scratch, "my-cache");
    const own = launch(pack, { NODE_COMPILE_CACHE: chosen });
    expect((JSON.parse(own.stdout) as { cache: string }).cache).to.equal(chosen);
    const off = launch(pack, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect((JSON.parse(off.stdout) as { cache: string | null }).cache).to.equal(null);
  });

  it("falls back to policy/'s runner in a folder without one, which then checks its arguments", () => {
    const empty = path.join(scratch, "no-runner");
    mkdirSync(empty);
    // Without a program argument the real runner prints its usage and fails: proof that it is the one run.
    const run = spawnSync(launcher, ["127.0.0.1:9"], { cwd: empty, encoding: "utf8" });
    expect(run.stderr).to.include("usage: RUN <engine-address> <program>");
    expect(run.status).to.not.equal(0);
  });
});

/** Bytes of the files under `dir`, all levels. */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

describe("policy/ under its launcher: Node's compile cache", function () {
  this.timeout(60_000);

  it("is written once the pack serves, though the engine stops the pack with a signal", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-policy-cache-"));
    try {
      const tools = path.join(scratch, "tools");
      const setup = spawnSync("bash", [path.join(repoRoot, "scripts/setup-policy.sh")], {
        env: { ...process.env, CODESEC_TOOLS_DIR: tools },
        encoding: "utf8",
      });
      expect(setup.status, setup.stderr).to.equal(0);
      const pack = path.join(tools, "policy-pack");
      const base = { ...process.env };
      delete base.NODE_COMPILE_CACHE;
      delete base.NODE_DISABLE_COMPILE_CACHE;
      const child = spawn(
        path.join(tools, "bin", "pulumi-analyzer-policy-codesec-nodejs"),
        ["127.0.0.1:9", pack],
        {
          cwd: pack,
          env: base,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once("exit", (_code, signal) => resolve(signal)),
      );
      const port = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) =>
          reject(new Error(`the pack exited (${code}) before it served: ${stderr}`)),
        );
      });
      expect(port).to.match(/^\d+$/);
      // As the engine stops a plugin: SIGINT, which ends Node without the write it does at a normal exit.
      child.kill("SIGINT");
      expect(await exited).to.equal("SIGINT");
      // The runner's TypeScript alone compiles to megabytes: a cache of the modules the pack loaded.
      expect(bytesUnder(path.join(tools, "node-compile-cache"))).to.be.greaterThan(1_000_000);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
