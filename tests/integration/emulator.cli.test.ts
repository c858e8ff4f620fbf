/** The `codesec-emulator` command, run as a child process. */
import { expect } from "chai";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "emulator", "cli.ts");

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runCli(args: string[]): Run {
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", CLI, ...args], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
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

describe("codesec-emulator CLI", () => {
  let run: Run | undefined;
  afterEach(async () => {
    if (run && run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill("SIGKILL");
      await run.exited;
    }
    run = undefined;
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
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(run.stdout()).not.to.include("cst_");
    run.child.kill("SIGINT");
    expect((await run.exited).code).to.equal(0);
  });

  it("--help prints usage and exits 0; a bad --port exits 2", async () => {
    run = runCli(["--help"]);
    expect((await run.exited).code).to.equal(0);
    expect(run.stdout()).to.match(/^Usage: codesec-emulator/);
    run = runCli(["--port", "http"]);
    expect((await run.exited).code).to.equal(2);
    expect(run.stderr()).to.match(/--port must be an integer/);
  });
});
