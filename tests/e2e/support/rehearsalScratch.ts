/**
 * The release rehearsal's scratch folder (tests/e2e/release.rehearsal.test.ts) and the sweep of what a
 * killed rehearsal left. A rehearsal's folder `rehearsal-*` lives in its process's scratch folder
 * (harness.ts, `codesec-e2e-*` in the system's temporary folder), names the process that owns it in
 * `owner.pid`, and tags every process it starts with its own name (PROCESS_TAG_VARIABLE). A kill of the
 * test's whole process group (a CI timeout) ends the test and its watchdog shells before any handler
 * runs, but the servers, each in a process group of its own, survive it, and the scratch folder stays:
 * the next rehearsal sweeps them.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { scratchDir, taggedProcesses } from "./harness";

/** A rehearsal's folder and the tag of the processes it starts. */
export interface RehearsalScratch {
  readonly work: string;
  readonly tag: string;
}

/**
 * A new rehearsal folder owned by this process: in this process's scratch folder, or in a new scratch
 * folder `codesec-e2e-*` of `parent` (the caller removes it), for a process whose own is inside the clone.
 */
export function rehearsalScratch(parent?: string): RehearsalScratch {
  const scratch = parent === undefined ? undefined : mkdtempSync(path.join(parent, "codesec-e2e-"));
  const work = realpathSync(scratchDir("rehearsal", scratch));
  writeFileSync(path.join(work, "owner.pid"), String(process.pid));
  return { work, tag: path.basename(work) };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends what an earlier rehearsal that was killed left behind in `systemTmp`: the processes it tagged
 * and its scratch folder, for each rehearsal folder whose owner process no longer runs.
 */
export function sweepKilledRehearsals(systemTmp: string): void {
  for (const scratch of readdirSync(systemTmp).filter((name) => name.startsWith("codesec-e2e-"))) {
    const dir = path.join(systemTmp, scratch);
    let rehearsals: string[];
    try {
      rehearsals = readdirSync(dir).filter(
        (name) => name.startsWith("rehearsal-") && existsSync(path.join(dir, name, "owner.pid")),
      );
    } catch {
      continue;
    }
    let owners: number[];
    try {
      owners = rehearsals.map((name) => Number(readFileSync(path.join(dir, name, "owner.pid"), "utf8")));
    } catch {
      continue; // removed meanwhile by the process that owns it
    }
    if (owners.length === 0 || owners.some((pid) => pid === process.pid || isRunning(pid))) continue;
    for (const name of rehearsals) endTagged(name);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Sends SIGKILL to every process tagged `tag` until none is left: a process that one of them starts
 * while the first ones are signalled is found on the next pass.
 */
function endTagged(tag: string, timeoutMs = 10_000): void {
  const deadline = Date.now() + timeoutMs;
  for (let left = taggedProcesses(tag); left.length > 0; left = taggedProcesses(tag)) {
    if (Date.now() > deadline) {
      throw new Error(`processes of a killed rehearsal (${tag}) still run after SIGKILL: ${left.join(", ")}`);
    }
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}
