import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { OPERATIONS, isMutating } from "../../api/operations";
import { createStack, prepareProgram, requirePulumiCli, runPulumi, timeLimitFor } from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/drift");

/**
 * A reviewer of an infrastructure pull request reads `pulumi preview --diff`: after a refresh found a
 * change made on the platform, the update step must name the field that changed, not only the resource.
 */
describe("drift found by refresh reads clearly in `pulumi preview --diff`", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;

  function mutatingCalls(): string[] {
    return emulator.control
      .requests()
      .filter((r) => r.operation !== null && isMutating(OPERATIONS[r.operation]))
      .map((r) => `${r.operation}`);
  }

  /** The lines of `pulumi preview --diff` output (ANSI colours off) about one resource's step. */
  async function previewDiff(extra: string[] = []): Promise<string> {
    const result = await runPulumi(stack, ["preview", "--diff", "--color", "never", ...extra], "e2e-diff");
    expect(result.code, result.output).to.equal(0);
    return result.output;
  }

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    const s = emulator.sample;
    stack = await createStack(prepareProgram(PROGRAM), "drift", {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "e2e:deploymentId": { value: emulator.deploymentId },
      "e2e:userId": { value: s.userId },
      "e2e:scmAppRequestId": { value: s.scmAppRequestId },
      "e2e:scmAppCode": { value: s.scmAppCode, secret: true },
    });
    await stack.up();
  });

  after(async () => {
    await emulator?.close();
  });

  it("with no drift, preview --diff shows no change", async () => {
    emulator.control.clearRequests();
    const output = await previewDiff(["--refresh"]);
    expect(output).not.to.match(/~ .*update/);
    expect(output).not.to.match(/to update/);
    expect(mutatingCalls()).to.deep.equal([]);
  });

  it("names the SCM app's changed field after `pulumi refresh`, and with `preview --refresh`", async () => {
    emulator.control.editScmApp(emulator.sample.scmAppRequestId, { scmName: "renamed-in-the-ui" });
    const refreshed = await previewDiff(["--refresh"]);
    expect(refreshed).to.match(/~ scmName\s*:\s*"[^"]*" => "renamed-in-the-ui"/);

    await stack.refresh();
    const afterRefresh = await previewDiff();
    expect(afterRefresh).to.match(/~ scmName\s*:\s*"[^"]*" => "renamed-in-the-ui"/);
    // Only the changed field: a reviewer must not have to spot it among unchanged ones.
    expect(afterRefresh).not.to.match(/[~+-] slug\s*:/);

    // `up` records the change without calling the platform; then nothing is left to show.
    emulator.control.clearRequests();
    await stack.up();
    expect(mutatingCalls()).to.deep.equal([]);
    const settled = await previewDiff(["--refresh"]);
    expect(settled).not.to.match(/scmName/);
    expect(settled).not.to.match(/to update/);
  }).timeout(timeLimitFor(5));

  it("names the caller's role when it was changed on the platform", async () => {
    emulator.control.setUserRole(emulator.sample.userId, {
      deploymentId: emulator.deploymentId,
      role: "ORG_ROLE_MEMBER",
    });
    const refreshed = await previewDiff(["--refresh"]);
    expect(refreshed).to.match(/~ role\s*:\s*"ORG_ROLE_MEMBER" => "ORG_ROLE_ADMIN"/);

    await stack.refresh();
    const afterRefresh = await previewDiff();
    expect(afterRefresh).to.match(/~ role\s*:\s*"ORG_ROLE_MEMBER" => "ORG_ROLE_ADMIN"/);

    // A demoted caller cannot promote itself (operation 1 needs an admin), so the role is put back on the
    // platform; the next drift check then finds nothing to change, and no call was made.
    emulator.control.clearRequests();
    emulator.control.setUserRole(emulator.sample.userId, {
      deploymentId: emulator.deploymentId,
      role: "ORG_ROLE_ADMIN",
    });
    expect(await previewDiff(["--refresh"])).not.to.match(/to update/);
    expect(mutatingCalls()).to.deep.equal([]);
  }).timeout(timeLimitFor(4));
});
