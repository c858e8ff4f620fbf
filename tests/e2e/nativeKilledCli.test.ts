/**
 * A `pulumi up` killed outright (SIGKILL to the CLI alone: an out-of-memory kill, a CI runner that ends
 * only the main process) while each of two native providers has a role write waiting for its answer.
 * The engine starts every plugin in a process group of its own and never gets to stop them, so the
 * plugin must notice by itself that the engine is gone (provider/native/shutdown.ts): both plugin
 * processes end once their writes have answered, and none is left serving with the token in memory.
 */
import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import {
  createNativeStack,
  killTaggedProcesses,
  packedNativeSdk,
  prepareProgram,
  requirePulumiCli,
  spawnPulumi,
  taggedProcesses,
} from "./support/harness";
import { waitFor } from "../support/waitFor";

const PROGRAM = path.join(__dirname, "programs/native-killed");
/**
 * How long each role write waits before its answer, once applied: long enough that the second plugin's
 * write is applied before the first one's answer, even on a loaded machine (the test checks it).
 */
const LATENCY_MS = 8000;

/** The tagged processes that are the native plugin (its launcher runs Node on the plugin's build). */
function pluginProcesses(tag: string): number[] {
  return taggedProcesses(tag).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("pulumi-resource-codesec");
    } catch {
      return false; // ended meanwhile
    }
  });
}

describe("native provider: a `pulumi up` killed outright leaves no plugin running", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;
  const tag = `killed-cli-${randomUUID()}`;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    const dir = prepareProgram(PROGRAM, { tarball: packedNativeSdk() });
    stack = await createNativeStack(dir, "killed", {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "e2e:baseUrl": { value: emulator.baseUrl },
      "e2e:token": { value: emulator.apiToken, secret: true },
    });
  });

  after(async () => {
    await killTaggedProcesses(tag); // the language host and the program, orphaned by the kill
    await emulator?.close();
  });

  it("both plugins end by themselves once their writes have answered", async () => {
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
    const plugins = pluginProcesses(tag);
    expect(
      plugins.length,
      "the default provider's and the explicit Provider's plugin, at least",
    ).to.be.at.least(2);

    process.kill(run.child.pid!, "SIGKILL");
    expect((await run.exited).signal).to.equal("SIGKILL");
    await waitFor(
      "the plugin processes to end",
      () => plugins.every((pid) => !pluginProcesses(tag).includes(pid)),
      LATENCY_MS + 20_000,
    );
    // Not before the platform answered the writes under way: none is cut in the middle, engine or not.
    expect(Date.now() - appliedAt, "ms from the writes' application to the plugins' end").to.be.at.least(
      LATENCY_MS - 1000,
    );
  });
});
