/**
 * Which processes end with the engine once they load the dynamic resources' code (provider/dynamic/
 * hostShutdown.ts), in processes of their own whose stdin is a pipe the test holds, as the engine holds
 * the host's: one whose script is Pulumi's dynamic-provider host, and one that is not (a program, a test
 * runner), each loading the code through a kind's entry (stacks of 0.4.0 on) and through the legacy entry
 * (stacks of 0.1.0 to 0.3.0). The end of stdin ends the host, never the other.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { bundledEntry, bundleFolder } from "../support/bundledEntry";

const ROOT = path.resolve(__dirname, "../..");

/** Where each way of loading the code comes from: the tree's sources, bundled once for the file. */
const SOURCES = {
  entry: "provider/generated/engineEntries/UserRole.ts",
  legacy: "provider/dynamic/index.ts",
} as const;

/**
 * The script's text: loads the code as `via` says from `module` (its bundle, or its source through
 * ts-node), then serves nothing until it is ended, like a gRPC server.
 */
function scriptText(via: "entry" | "legacy", module: string): string {
  const required = JSON.stringify(module);
  const load =
    via === "entry"
      ? `require(${required});`
      : `require(${required})` +
        `.run("UserRole", "diff", ["1001/502", { role: "ORG_ROLE_MEMBER" }, { role: "ORG_ROLE_MEMBER" }])` +
        ".catch(() => undefined);";
  return `${load}\nsetInterval(() => undefined, 1000);\nprocess.stdout.write("ready\\n");\n`;
}

/** Node's arguments that load the sources through ts-node: that process's coverage counts on them. */
const FROM_SOURCE = ["--conditions=codesec-source", "--require", "ts-node/register/transpile-only"];

/**
 * Runs `script` (through ts-node when `fromSource`), waits for its "ready", ends its stdin; resolves to
 * how it ended within `withinMs`.
 */
async function endOfStdin(script: string, withinMs: number, fromSource = false): Promise<string> {
  const child = spawn(process.execPath, [...(fromSource ? FROM_SOURCE : []), script], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(`exited ${code ?? signal}`)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (text: string) => text.includes("ready") && resolve());
    void exited.then((how) => reject(new Error(`the script ${how} before it was ready`)));
  });
  child.stdin.end();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    exited,
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still running"), withinMs))),
  ]);
  clearTimeout(timer);
  if (outcome === "still running") {
    child.kill("SIGKILL");
    await exited;
  }
  return outcome;
}

describe("dynamic resources: only Pulumi's dynamic-provider host ends with the engine", function () {
  this.timeout(60_000);
  let dir: string;
  let bundles: string;

  before(() => {
    dir = bundleFolder("host-shutdown-");
    bundles = path.join(dir, "bundles");
    for (const [via, source] of Object.entries(SOURCES)) {
      bundledEntry(source, path.join(bundles, `${via}.js`), { packages: "external" });
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const via of ["entry", "legacy"] as const) {
    const loaded = via === "entry" ? "a kind's entry" : "the legacy entry";

    it(`the host, through ${loaded}: exits 0 when its stdin ends`, async () => {
      const hostDir = path.join(dir, via, "node_modules/@pulumi/pulumi/cmd/dynamic-provider");
      mkdirSync(hostDir, { recursive: true });
      const script = path.join(hostDir, "index.js");
      writeFileSync(script, scriptText(via, path.join(bundles, `${via}.js`)));
      expect(await endOfStdin(script, 10_000)).to.equal("exited 0");
    });

    it(`any other process, through ${loaded}: keeps running when its stdin ends`, async () => {
      const script = path.join(dir, `program-${via}.js`);
      writeFileSync(script, scriptText(via, path.join(bundles, `${via}.js`)));
      expect(await endOfStdin(script, 1500)).to.equal("still running");
    });
  }

  // The host's code runs only in such a process: this one loads the sources, so that it counts for them.
  it("the host, through the legacy entry from source: exits 0 when its stdin ends", async () => {
    const hostDir = path.join(dir, "source", "node_modules/@pulumi/pulumi/cmd/dynamic-provider");
    mkdirSync(hostDir, { recursive: true });
    const script = path.join(hostDir, "index.js");
    writeFileSync(script, scriptText("legacy", path.join(ROOT, SOURCES.legacy)));
    expect(await endOfStdin(script, 10_000, true)).to.equal("exited 0");
  });
});
