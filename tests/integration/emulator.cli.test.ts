/**
 * The `codesec-emulator` command, run as a child process: from the working tree's sources, transpiled once
 * for the file (tests/support/transpiledEmulator.ts: a start then costs a Node start, not a compile of every
 * source under ts-node, which took most of mocha's 20 s default on a loaded machine), and as built and
 * linked by npm (emulator/dist). Each test is bounded by what it waits for: a child's start-up, generously;
 * every child still running after a test is killed.
 */
import { expect } from "chai";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { transpileEmulator, type TranspiledEmulator } from "../support/transpiledEmulator";

const ROOT = join(__dirname, "..", "..");
/** Bounds a test that starts children: only a failing one ever gets near it. */
const CHILD_TEST_LIMIT_MS = 120_000;

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every child a test started, so that none outlives it. */
const runs: Run[] = [];
let transpiled: TranspiledEmulator | undefined;

function runCli(args: string[]): Run {
  if (!transpiled) throw new Error("the emulator's command is transpiled in the suite's before hook");
  return runCommand(process.execPath, [...transpiled.command, ...args], transpiled.env);
}

/** Runs `command` from the repository root; this Node first on PATH (the bin's `#!/usr/bin/env node`). */
function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Run {
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...env, PATH: `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}` },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const run = { child, stdout: () => out, stderr: () => err, exited };
  runs.push(run);
  return run;
}

/** Resolves with the first complete stdout line (rejects if the process exits first). */
function firstLine(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const index = run.stdout().indexOf("\n");
      if (index !== -1) {
        run.child.stdout.off("data", check);
        resolve(run.stdout().slice(0, index));
      }
    };
    run.child.stdout.on("data", check);
    run.exited.then(
      ({ code }) => reject(new Error(`exited with ${code} before printing: ${run.stderr()}`)),
      reject,
    );
  });
}

describe("codesec-emulator CLI", function () {
  this.timeout(CHILD_TEST_LIMIT_MS);
  let run: Run;
  before(() => {
    transpiled = transpileEmulator();
  });
  afterEach(async () => {
    for (const started of runs.splice(0)) {
      if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill("SIGKILL");
      await started.exited;
    }
  });
  after(() => {
    transpiled?.remove();
    transpiled = undefined;
  });

  it("--json prints exactly one JSON line with credentials and samples, serves, and stops cleanly on SIGTERM", async () => {
    run = runCli(["--json", "--port", "0"]);
    const ready = JSON.parse(await firstLine(run)) as {
      baseUrl: string;
      apiToken: string;
      jwt: string;
      deploymentId: string;
      sample: Record<string, string>;
    };
    expect(ready.baseUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.deploymentId).to.equal("1001");
    expect(ready.sample).to.include({ userId: "501", scmAppRequestId: "apprq-1001-a" });
    const res = await fetch(`${ready.baseUrl}/api/auth/users/current`, {
      headers: { authorization: `Bearer ${ready.jwt}` },
    });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { user: { id: string } }).user.id).to.equal("501");
    const scan = await fetch(`${ready.baseUrl}/api/v2/deployments/1001/scans/${ready.sample.scanId}`, {
      headers: { authorization: `Bearer ${ready.apiToken}` },
    });
    expect(scan.status).to.equal(200);

    run.child.kill("SIGTERM");
    const { code } = await run.exited;
    expect(code).to.equal(0);
    expect(
      run
        .stdout()
        .split("\n")
        .filter((line) => line !== ""),
    ).to.have.length(1);
    // Request lines go to stderr, and no credential is ever logged.
    expect(run.stderr()).to.include("GET /api/auth/users/current -> 200");
    expect(run.stderr()).not.to.include(ready.apiToken);
    expect(run.stderr()).not.to.include(ready.jwt);
  });

  it("without --json prints a banner without credentials", async () => {
    run = runCli(["--port", "0", "--quiet"]);
    const line = await firstLine(run);
    expect(line).to.match(/^codesec-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    run.child.kill("SIGINT");
    expect((await run.exited).code).to.equal(0);
    // The whole banner (and anything else the command printed), once it has exited.
    expect(run.stdout()).to.include("control surface");
    expect(run.stdout()).not.to.include("cst_");
    expect(run.stdout()).not.to.match(/eyJ/);
  });

  it("--help prints usage and exits 0; a bad --port exits 2", async () => {
    run = runCli(["--help"]);
    expect((await run.exited).code).to.equal(0);
    expect(run.stdout()).to.match(/^Usage: codesec-emulator/);
    // Where the example fixture file is on this machine, that collections are optional, the control index.
    const example = /(\S+fixtures\.example\.json)/.exec(run.stdout())?.[1];
    expect(example, "the example fixture file's path").to.be.a("string");
    expect(existsSync(example!)).to.equal(true);
    expect(run.stdout()).to.match(/absent = empty/);
    expect(run.stdout()).to.include("GET <baseUrl>/__emulator/");
    run = runCli(["--port", "http"]);
    expect((await run.exited).code).to.equal(2);
    expect(run.stderr()).to.match(/--port must be an integer/);
  });

  it("--rate-limit N answers 429 with Retry-After beyond N requests per second of one credential", async () => {
    run = runCli(["--json", "--quiet", "--rate-limit", "1"]);
    const ready = JSON.parse(await firstLine(run)) as { baseUrl: string; apiToken: string };
    const call = () =>
      fetch(`${ready.baseUrl}/api/auth/users/current`, {
        headers: { authorization: `Bearer ${ready.apiToken}` },
      });
    expect((await call()).status).to.equal(200);
    const refused = await call();
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get("retry-after"))).to.be.at.least(1);
    expect(((await refused.json()) as { error: { message: string } }).error.message).to.include(
      "1 request per second",
    );
    run.child.kill("SIGTERM");
    expect((await run.exited).code).to.equal(0);
  });

  it("--help lists --rate-limit; a --rate-limit that is not a positive number exits 2", async () => {
    run = runCli(["--help"]);
    expect((await run.exited).code).to.equal(0);
    expect(run.stdout()).to.match(/--rate-limit N\s+\S/);
    run = runCli(["--rate-limit", "0"]);
    expect((await run.exited).code).to.equal(2);
    expect(run.stderr()).to.match(/--rate-limit must be a positive number of requests per second, got "0"/);
  });

  describe("the command linked by npm ci (node_modules/.bin/codesec-emulator)", () => {
    const linked = join(ROOT, "node_modules", ".bin", "codesec-emulator");

    it("run from the repository root, prints the JSON line and exits on SIGTERM", async () => {
      run = runCommand(linked, ["--json", "--port", "0", "--quiet"]);
      const ready = JSON.parse(await firstLine(run)) as Record<string, unknown>;
      expect(ready).to.have.keys("baseUrl", "apiToken", "jwt", "deploymentId", "sample");
      expect(ready.baseUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready.apiToken).to.be.a("string").with.length.greaterThan(0);
      expect(ready.jwt).to.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(ready.deploymentId).to.equal("1001");
      expect(ready.sample).to.have.keys(
        "userId",
        "memberUserId",
        "projectId",
        "branchId",
        "scanId",
        "scmConfigId",
        "scmAppRequestId",
        "scmAppCode",
      );
      const res = await fetch(`${String(ready.baseUrl)}/api/auth/users/current`, {
        headers: { authorization: `Bearer ${String(ready.apiToken)}` },
      });
      expect(res.status).to.equal(200);
      run.child.kill("SIGTERM");
      expect((await run.exited).code).to.equal(0);
    });

    it("without a build, says to run npm run build and exits 1", async () => {
      const dir = mkdtempSync(join(tmpdir(), "codesec-bin-"));
      try {
        // The shim alone, where no dist/ sits beside it: a clone where `npm run build` has not run.
        mkdirSync(join(dir, "bin"));
        copyFileSync(join(ROOT, "emulator", "bin", "codesec-emulator.js"), join(dir, "bin", "shim.js"));
        run = runCommand(process.execPath, [join(dir, "bin", "shim.js"), "--json"]);
        expect((await run.exited).code).to.equal(1);
        expect(run.stderr()).to.include("npm run build");
        expect(run.stdout()).to.equal("");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
