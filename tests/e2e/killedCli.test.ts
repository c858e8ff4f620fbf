/**
 * A `pulumi up` killed outright (SIGKILL to the CLI alone: an out-of-memory kill, a CI runner that ends
 * only the main process) while each provider process has a role write waiting for its answer. The engine
 * starts every provider in a process group of its own and never gets to stop them, so each must notice by
 * itself that the engine is gone (provider/engineGone.ts): the native plugins (provider/native/shutdown.ts)
 * and Pulumi's dynamic-provider host while it runs the dynamic resources (provider/dynamic/hostShutdown.ts;
 * without it, the host was measured still serving 5 minutes after the kill). Each ends once its writes
 * have answered, and none is left serving with the token in memory.
 */
import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { ENGINE_GONE_GRACE_MS } from "../../provider/engineGone";
import {
  createNativeStack,
  createStack,
  killTaggedProcesses,
  packedNativeSdk,
  packedPackage,
  prepareProgram,
  requirePulumiCli,
  spawnPulumi,
  taggedProcesses,
} from "./support/harness";
import { waitFor } from "../support/waitFor";

/**
 * How long each role write waits before its answer, once applied: long enough that the second write is
 * applied before the first one's answer, even on a loaded machine (the test checks it).
 */
const LATENCY_MS = 8000;

/** The tagged processes whose command line holds `marker`. */
function processesRunning(tag: string, marker: string): number[] {
  return taggedProcesses(tag).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(marker);
    } catch {
      return false; // ended meanwhile
    }
  });
}

interface Case {
  title: string;
  program: string;
  /** A part of the provider processes' command line. */
  marker: string;
  /** How many such processes the run starts, at least. */
  processes: number;
  why: string;
  stack(dir: string, emulator: EmulatorHandle): Promise<Stack>;
  tarball(): string;
}

const CASES: Case[] = [
  {
    title: "native provider: both plugins end by themselves once their writes have answered",
    program: "programs/killed-native",
    marker: "pulumi-resource-codesec",
    processes: 2,
    why: "the default provider's and the explicit Provider's plugin, at least",
    tarball: packedNativeSdk,
    stack: (dir, emulator) =>
      createNativeStack(dir, "killed", {
        "codesec:baseUrl": { value: emulator.baseUrl },
        "codesec:token": { value: emulator.apiToken, secret: true },
        "e2e:baseUrl": { value: emulator.baseUrl },
        "e2e:token": { value: emulator.apiToken, secret: true },
      }),
  },
  {
    title: "dynamic resources: Pulumi's dynamic-provider host ends by itself once its writes have answered",
    program: "programs/killed-dynamic",
    marker: "cmd/dynamic-provider",
    processes: 1,
    why: "the host that serves the dynamic UserRoles",
    tarball: packedPackage,
    stack: (dir, emulator) =>
      createStack(dir, "killed", {
        "codesec:baseUrl": { value: emulator.baseUrl },
        "codesec:token": { value: emulator.apiToken, secret: true },
      }),
  },
];

/** One case's emulator and stack, set up before any case's run starts. */
interface Prepared {
  emulator: EmulatorHandle;
  stack: Stack;
  tag: string;
}

/**
 * One case's run: `pulumi up` until both role writes wait for their answers, SIGKILL to the CLI, then
 * the provider processes must end by themselves once the writes have answered. Rejects with the first
 * assertion that fails.
 */
async function killedRun(c: Case, { emulator, stack, tag }: Prepared): Promise<void> {
  emulator.control.addFault({
    operation: "updateUserRole",
    phase: "after",
    latencyMs: LATENCY_MS,
    count: 2,
  });
  const run = spawnPulumi(stack, ["up", "--yes", "--skip-preview"], tag);
  const roleOf = (id: string) => emulator.control.state().users.find((u) => u.id === id)?.roles["1001"];
  await waitFor(
    "both role writes to be applied",
    () => roleOf("502") === "ORG_ROLE_READONLY" && roleOf("503") === "ORG_ROLE_MEMBER",
    120_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; the CLI printed:\n${run.output()}`);
  });
  const appliedAt = Date.now();
  expect(
    emulator.control
      .requests()
      .filter((r) => r.operation === "updateUserRole")
      .map((r) => `${r.path} ${r.pending === true ? "pending" : r.status}`),
    "both role writes still waiting for their answers when the CLI is killed",
  ).to.have.members([
    "/api/agent/deployments/1001/users/502/roles pending",
    "/api/agent/deployments/1001/users/503/roles pending",
  ]);
  const providers = processesRunning(tag, c.marker);
  expect(providers.length, c.why).to.be.at.least(c.processes);

  process.kill(run.child.pid!, "SIGKILL");
  const killedAt = Date.now();
  expect(killedAt - appliedAt, "killed well before the writes could answer").to.be.below(LATENCY_MS - 2000);
  expect((await run.exited).signal).to.equal("SIGKILL");
  await waitFor(
    "the provider processes to end",
    () => providers.every((pid) => !processesRunning(tag, c.marker).includes(pid)),
    2 * ENGINE_GONE_GRACE_MS,
  );
  const endedAt = Date.now();
  // Not before the platform answered the writes under way: none is cut in the middle, engine or not.
  expect(endedAt - appliedAt, "ms from the writes' application to the processes' end").to.be.at.least(
    LATENCY_MS - 1000,
  );
  // Ended by the writes' answers (under LATENCY_MS after the kill), not by the grace that bounds them.
  expect(endedAt - killedAt, "ms from the kill to the processes' end").to.be.below(
    ENGINE_GONE_GRACE_MS - 10_000,
  );
  expect(
    emulator.control
      .requests()
      .filter((r) => r.operation === "updateUserRole")
      .map((r) => r.status),
    "both writes answered",
  ).to.deep.equal([200, 200]);
}

describe("a `pulumi up` killed outright leaves no provider process running", function () {
  const emulators: EmulatorHandle[] = [];
  const prepared = new Map<Case, Prepared>();
  /** Each case's run: the cases run at once, as each mostly waits for its writes' answers. */
  const runs = new Map<Case, Promise<void>>();

  before(async () => {
    console.log(`      using ${requirePulumiCli()}`);
    // Every install first: an install blocks this process, which times the runs.
    for (const c of CASES) {
      const emulator = await startEmulator({ quiet: true });
      emulators.push(emulator);
      const dir = prepareProgram(path.join(__dirname, c.program), { tarball: c.tarball() });
      prepared.set(c, { emulator, stack: await c.stack(dir, emulator), tag: `killed-cli-${randomUUID()}` });
    }
    for (const [c, p] of prepared) {
      const run = killedRun(c, p);
      run.catch(() => undefined); // the case's test reports it
      runs.set(c, run);
    }
  });

  after(async () => {
    await Promise.allSettled(runs.values());
    // The language hosts, orphaned by the kills (each ends 5 min later).
    for (const { tag } of prepared.values()) await killTaggedProcesses(tag);
    await Promise.all(emulators.map((emulator) => emulator.close()));
  });

  for (const c of CASES) {
    describe(c.title.split(":")[0], () => {
      it(c.title.split(": ")[1], async () => {
        expect(runs.has(c), "the case's run was started").to.equal(true);
        await runs.get(c);
      });
    });
  }
});
