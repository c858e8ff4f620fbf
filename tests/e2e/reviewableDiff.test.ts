import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { writes } from "../support/emulator";
import { createStack, prepareProgram, requirePulumiCli, runPulumi, timeLimitFor } from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/drift");

/**
 * A reviewer reads a drift diff the same way on every kind:
 * - `pulumi refresh --preview-only` (the drift check) shows what the state recorded and what the platform
 *   has now: `~ field: "recorded" => "platform"`;
 * - `pulumi preview --diff` shows what the platform has now and what `pulumi up` makes it:
 *   `~ field: "platform" => "after up"`. An SCM app cannot be changed back, so its update (which records
 *   the platform's values) names no field as a change and says what it records instead.
 * No internal field (`platformReported`, `appliedApp`) ever shows.
 */
describe("drift reads the same way on every kind", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;

  /** `pulumi <args> --diff` (ANSI colours off): exit code and output. */
  async function withDiff(args: string[]): Promise<{ code: number | null; output: string }> {
    return runPulumi(stack, [...args, "--diff", "--color", "never"], "e2e-diff");
  }

  async function previewDiff(extra: string[] = []): Promise<string> {
    const result = await withDiff(["preview", ...extra]);
    expect(result.code, result.output).to.equal(0);
    return result.output;
  }

  /** The drift check: `pulumi refresh --preview-only --expect-no-changes`. */
  async function driftCheck(): Promise<{ code: number | null; output: string }> {
    return withDiff(["refresh", "--preview-only", "--expect-no-changes"]);
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
      "e2e:lookupRequestId": { value: "apprq-1001-done" },
    });
    await stack.up();
  });

  after(async () => {
    await emulator?.close();
  });

  it("with no drift, the drift check passes and previews show no change and no internal field", async () => {
    emulator.control.clearRequests();
    const check = await driftCheck();
    expect(check.code, check.output).to.equal(0);
    for (const output of [await previewDiff(), await previewDiff(["--refresh"])]) {
      expect(output).not.to.match(/to update/);
      // The lookup by id is read on every run: none of its internal fields may show.
      expect(output).not.to.match(/platformReported|appliedApp/);
    }
    expect(writes(emulator, (r) => `${r.operation}`)).to.deep.equal([]);
  });

  it("an SCM app renamed on the platform: recorded => platform in the drift check, no field to revert in preview", async () => {
    emulator.control.editScmApp(emulator.sample.scmAppRequestId, { scmName: "renamed-in-the-ui" });
    const check = await driftCheck();
    expect(check.code, "the drift check fails").not.to.equal(0);
    expect(check.output).to.match(/~ scmName\s*:\s*"acme" => "renamed-in-the-ui"/);
    // Only the changed field: a reviewer must not have to spot it among unchanged ones.
    expect(check.output).not.to.match(/[~+-] slug\s*:/);

    await stack.refresh();
    const preview = await previewDiff();
    expect(preview).to.match(/~ 1 to update/);
    // `up` cannot rename the app back: no line may read as a change of the platform, nor any internal field.
    expect(preview).not.to.match(/scmName\s*:.*=>/);
    expect(preview).not.to.match(/platformReported|appliedApp/);

    // `up` records the platform's value without calling the platform, and says what it recorded.
    emulator.control.clearRequests();
    const up = await stack.up();
    expect(writes(emulator, (r) => `${r.operation}`)).to.deep.equal([]);
    expect(up.stdout).to.include(
      'recorded the app as the platform now reports it (scmName "acme" -> "renamed-in-the-ui")',
    );
    const settled = await driftCheck();
    expect(settled.code, settled.output).to.equal(0);
    expect(await previewDiff(["--refresh"])).not.to.match(/to update/);
  }).timeout(timeLimitFor(6));

  it("the caller's role changed on the platform: recorded => platform in the drift check, platform => declared in preview", async () => {
    emulator.control.setUserRole(emulator.sample.userId, {
      deploymentId: emulator.deploymentId,
      role: "ORG_ROLE_MEMBER",
    });
    const check = await driftCheck();
    expect(check.code).not.to.equal(0);
    expect(check.output).to.match(/~ role\s*:\s*"ORG_ROLE_ADMIN" => "ORG_ROLE_MEMBER"/);

    await stack.refresh();
    const afterRefresh = await previewDiff();
    expect(afterRefresh).to.match(/~ role\s*:\s*"ORG_ROLE_MEMBER" => "ORG_ROLE_ADMIN"/);

    // A demoted caller cannot promote itself (`updateUserRole` needs an admin), so the role is put back on
    // the platform; the next drift check then finds nothing to change, and no call was made.
    emulator.control.clearRequests();
    emulator.control.setUserRole(emulator.sample.userId, {
      deploymentId: emulator.deploymentId,
      role: "ORG_ROLE_ADMIN",
    });
    expect(await previewDiff(["--refresh"])).not.to.match(/to update/);
    expect(writes(emulator, (r) => `${r.operation}`)).to.deep.equal([]);
  }).timeout(timeLimitFor(4));
});
