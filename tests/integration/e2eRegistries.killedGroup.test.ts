/**
 * What a CI timeout leaves of a release rehearsal, and the sweep that ends it (tests/e2e/support/
 * rehearsalScratch.ts): a starter, in a process group of its own as the test runner's, makes a rehearsal's
 * scratch folder and starts a tagged server under the watchdog as the rehearsal does (registries.ts); the
 * whole group is killed with SIGKILL, the watchdog shell with it, so that the server, in a process group of
 * its own, survives. The sweep then ends every process the rehearsal tagged and removes its folder, and
 * leaves a rehearsal that still runs alone.
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { PROCESS_TAG_VARIABLE, scratchDir, taggedProcesses } from "../e2e/support/harness";
import { sweepKilledRehearsals } from "../e2e/support/rehearsalScratch";

const support = path.resolve(__dirname, "../e2e/support");

/**
 * Makes a rehearsal's folder, starts a server tagged with its name under the watchdog and a command as the
 * rehearsal runs one, prints the folder, the tag and both pids as one JSON line, and waits.
 */
const STARTER = `
const { rehearsalScratch } = require(${JSON.stringify(path.join(support, "rehearsalScratch.ts"))});
const { startWatched, freePort } = require(${JSON.stringify(path.join(support, "registries.ts"))});
const { taggedCommands } = require(${JSON.stringify(path.join(support, "rehearsalCommands.ts"))});
const { existsSync, readFileSync } = require("node:fs");
const path = require("node:path");
(async () => {
  const { work, tag } = rehearsalScratch();
  const port = await freePort();
  const server = await startWatched(
    "a rehearsal's server",
    process.execPath,
    ["-e", "require('node:http').createServer((q, s) => s.end(String(process.pid))).listen(" + port + ", '127.0.0.1')"],
    {
      env: { ...process.env, ${PROCESS_TAG_VARIABLE}: tag },
      cwd: work,
      url: "http://127.0.0.1:" + port + "/",
      readyUrl: "http://127.0.0.1:" + port + "/",
    },
  );
  const serverPid = Number(await (await fetch(server.url)).text());
  // A command run as the rehearsal runs its commands, given an environment without the tag.
  const pidFile = path.join(work, "command.pid");
  taggedCommands(tag)(work, { PATH: process.env.PATH }, "bash", ["-c", "echo $$ >command.pid; exec sleep 600"]).catch(() => undefined);
  while (!existsSync(pidFile) || readFileSync(pidFile, "utf8") === "") await new Promise((r) => setTimeout(r, 50));
  const commandPid = Number(readFileSync(pidFile, "utf8"));
  process.stdout.write(JSON.stringify({ work, tag, serverPid, commandPid }) + "\\n");
  setInterval(() => undefined, 1000);
})();
`;

interface Started {
  readonly starter: ChildProcess;
  readonly work: string;
  readonly tag: string;
  readonly serverPid: number;
  readonly commandPid: number;
}

/** A starter in a process group of its own, its temporary folder `tmp`, once its server answers. */
async function startRehearsal(tmp: string): Promise<Started> {
  const starter = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", STARTER], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const line = await new Promise<string>((resolve, reject) => {
    let text = "";
    starter.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.trim());
    });
    starter.once("exit", (code) => reject(new Error(`the starter ended (${code}) before its server ran`)));
  });
  return { starter, ...(JSON.parse(line) as Omit<Started, "starter">) };
}

/** Kills the starter's whole process group with SIGKILL, as a CI timeout does, and waits until it is reaped. */
async function killGroup(started: Started): Promise<void> {
  const exited = new Promise((resolve) => started.starter.once("exit", resolve));
  process.kill(-started.starter.pid!, "SIGKILL");
  await exited;
}

/** Whether `pid` runs: exists and is not a zombie (an ended process its parent has not reaped). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * The scratch folders (harness.ts) in `tmp`: the starter's TMPDIR, where its TypeScript compiler's cache
 * goes too, as into the system's temporary folder.
 */
function scratchFolders(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name.startsWith("codesec-e2e-"));
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition() && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the sweep of a release rehearsal killed with its whole process group", function () {
  // Each starter loads the e2e harness through ts-node: more than a minute on a loaded 2-core machine.
  this.timeout(300_000);

  it("ends the servers that outlived the kill and removes the rehearsal's folder", async () => {
    const tmp = scratchDir("killed-group");
    const killed = await startRehearsal(tmp);
    expect(isRunning(killed.serverPid)).to.equal(true);
    await killGroup(killed);
    // What a CI timeout leaves: the server, in a process group of its own, runs on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isRunning(killed.serverPid), "the server outlives the kill of its starter's group").to.equal(true);
    expect(isRunning(killed.commandPid), "the command outlives it too").to.equal(true);
    expect(existsSync(killed.work)).to.equal(true);

    sweepKilledRehearsals(tmp);

    expect(taggedProcesses(killed.tag), "processes tagged by the killed rehearsal").to.deep.equal([]);
    expect(isRunning(killed.serverPid), `server ${killed.serverPid}`).to.equal(false);
    expect(isRunning(killed.commandPid), `command ${killed.commandPid}`).to.equal(false);
    expect(scratchFolders(tmp), "the killed rehearsal's scratch folder").to.deep.equal([]);
  });

  it("leaves a rehearsal whose owner still runs, and sweeps it once that one is killed", async () => {
    const tmp = scratchDir("live");
    const live = await startRehearsal(tmp);
    try {
      sweepKilledRehearsals(tmp);
      expect(existsSync(path.join(live.work, "owner.pid")), "the live rehearsal's folder").to.equal(true);
      expect(isRunning(live.serverPid), "the live rehearsal's server").to.equal(true);
    } finally {
      await killGroup(live);
    }
    sweepKilledRehearsals(tmp);
    await waitUntil(() => !isRunning(live.serverPid), 5000);
    expect(isRunning(live.serverPid)).to.equal(false);
    expect(isRunning(live.commandPid)).to.equal(false);
    expect(scratchFolders(tmp)).to.deep.equal([]);
  });
});
