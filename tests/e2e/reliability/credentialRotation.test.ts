/**
 * Rotation through the real CLI. The engine configures a dynamic provider from the stack config
 * recorded at the last `pulumi up`, so after a rotation a plain `pulumi refresh` or `pulumi destroy`
 * still sends the old token. This proves the steps docs/credentials.md gives: `--run-program`, or one
 * `pulumi up` first. It also proves that the preview checks the credentials it is given. Writes the
 * "credential-rotation" report section.
 */
import { expect } from "chai";
import { startEmulator, type EmulatorHandle } from "../../../emulator/index";
import { isMutating, OPERATIONS } from "../../../api/operations";
import { markdownTable, writeReportSection } from "../../support/reliabilityReport";
import { requirePulumiCli, timeLimitFor } from "../support/harness";
import { credentialStack, rotateTokens, type CredentialStack } from "./credentialStack";

function failureOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => {
      throw new Error("the command was expected to fail");
    },
    (error: unknown) => String(error),
  );
}

describe("credential rotation through the real CLI", function () {
  let emulator: EmulatorHandle;
  let target: CredentialStack;
  const steps: string[][] = [];
  let passed = 0;

  const statuses = (status: number) => emulator.control.requests().filter((r) => r.status === status).length;
  const writes = () =>
    emulator.control.requests().filter((r) => r.operation !== null && isMutating(OPERATIONS[r.operation]));
  const roleOf = (userId: string) =>
    emulator.control.state().users.find((u) => u.id === userId)?.roles[emulator.deploymentId];

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    target = await credentialStack(emulator, "rotation");
    const up = await target.stack.up();
    expect(up.summary.resourceChanges).to.deep.include({ create: 5 });
  });

  after(async () => {
    await emulator?.close();
  });

  it("a plain refresh after a rotation sends the revoked token, and says what to do", async () => {
    await rotateTokens(emulator, target);
    emulator.control.clearRequests();
    const error = await failureOf(target.stack.refresh());
    expect(error).to.include("HTTP 401").and.include("--run-program").and.include("pulumi up");
    expect(statuses(401)).to.be.greaterThan(0);
    steps.push([
      "rotate and revoke",
      "`pulumi refresh`",
      "fails: HTTP 401, with the advice to run `pulumi up` or add `--run-program`",
    ]);
    passed++;
  });

  it("a drift check with --run-program uses the rotated tokens", async () => {
    emulator.control.clearRequests();
    await target.stack.preview({ refresh: true, runProgram: true, expectNoChanges: true });
    expect(statuses(401)).to.equal(0);
    expect(writes()).to.deep.equal([]);
    steps.push([
      "(same)",
      "`pulumi preview --refresh --run-program --expect-no-changes`",
      "succeeds with the new tokens",
    ]);
    passed++;
  });

  it("pulumi refresh --run-program uses the rotated tokens of both connections", async () => {
    emulator.control.clearRequests();
    const refresh = await target.stack.refresh({ runProgram: true });
    expect(refresh.summary.result).to.equal("succeeded");
    expect(statuses(401)).to.equal(0);
    expect(writes()).to.deep.equal([]);
    steps.push(["(same)", "`pulumi refresh --run-program`", "succeeds with the new tokens, no write"]);
    passed++;
  });

  it("one pulumi up (no changes) records the rotated tokens for later refreshes", async () => {
    await rotateTokens(emulator, target);
    emulator.control.clearRequests();
    const up = await target.stack.up();
    expect(up.summary.resourceChanges).to.deep.equal({ same: 5 });
    expect(writes()).to.deep.equal([]);
    const refresh = await target.stack.refresh();
    expect(refresh.summary.result).to.equal("succeeded");
    expect(statuses(401)).to.equal(0);
    steps.push([
      "rotate and revoke",
      "`pulumi up`, then `pulumi refresh`",
      "both succeed; the up changes nothing",
    ]);
    passed++;
  });

  it("the preview checks the credentials it is given, before any write", async () => {
    const cases: [string, string, string, RegExp][] = [
      ["codesec:token", "cst_1001_bogus_token_value", "a bogus token", /HTTP 401/],
      ["codesec:baseUrl", "http://127.0.0.1:9", "an unreachable platform", /127\.0\.0\.1:9/],
      ["codesec:baseUrl", `${emulator.baseUrl}/api`, "a base URL ending in /api", /\/api/],
    ];
    // Functions would fail the program on their own; here only the resources' checks may speak.
    await target.stack.setConfig("e2e:functions", { value: "false" });
    try {
      for (const [key, value, what, reason] of cases) {
        const saved = await target.stack.getConfig(key);
        await target.stack.setConfig(key, { value, secret: key === "codesec:token" });
        try {
          emulator.control.clearRequests();
          const error = await failureOf(target.stack.preview());
          expect(error, what).to.match(reason);
          expect(error, what).to.include(key);
          expect(writes(), what).to.deep.equal([]);
        } finally {
          await target.stack.setConfig(key, saved);
        }
        steps.push([what, "`pulumi preview`", "fails naming the setting, with no write"]);
      }
    } finally {
      await target.stack.removeConfig("e2e:functions");
    }
    passed++;
  }).timeout(timeLimitFor(3));

  it("pulumi destroy --run-program destroys with the rotated tokens, applying roleOnDestroy", async () => {
    await rotateTokens(emulator, target);
    emulator.control.clearRequests();
    const destroy = await target.stack.destroy({ runProgram: true });
    expect(destroy.summary.resourceChanges).to.deep.include({ delete: 5 });
    expect(statuses(401)).to.equal(0);
    expect(roleOf(emulator.sample.memberUserId)).to.equal("ORG_ROLE_MEMBER");
    steps.push([
      "rotate and revoke",
      "`pulumi destroy --run-program`",
      "succeeds; roleOnDestroy applied with the new token",
    ]);
    passed++;
  });

  after(() => {
    if (passed !== 6) return;
    writeReportSection({
      id: "credential-rotation",
      title: "Credential rotation",
      markdown: [
        "A stack with a default connection (stack config) and a named one (`codesec:connections.org2`), " +
          "each token rotated in stack config and the old one revoked on the platform before each step " +
          "(`tests/e2e/reliability/credentialRotation.test.ts`, through the real CLI).",
        "",
        markdownTable(["change", "command", "outcome"], steps),
      ].join("\n"),
    });
  });
});
