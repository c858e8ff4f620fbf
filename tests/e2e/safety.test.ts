import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { roleOf, writes } from "../support/emulator";
import { createStack, prepareProgram, requirePulumiCli, runPulumi, stateResources } from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/safety");

/** Runs `pulumi <args>` with `env` added to the CLI's environment (the program and providers inherit it). */
async function pulumiWith(
  stack: Stack,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await runPulumi(stack, [...args, "--color", "never"], "e2e-safety");
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

function programConfig(emulator: EmulatorHandle) {
  const s = emulator.sample;
  return {
    "codesec:baseUrl": { value: emulator.baseUrl },
    "codesec:token": { value: emulator.apiToken, secret: true },
    "e2e:deploymentId": { value: emulator.deploymentId },
    "e2e:memberUserId": { value: s.memberUserId },
    "e2e:projectId": { value: s.projectId },
    "e2e:scmConfigId": { value: s.scmConfigId },
    "e2e:connectedRequestId": { value: "apprq-1001-done" },
    "e2e:scmAppRequestId": { value: s.scmAppRequestId },
    "e2e:scmAppCode": { value: s.scmAppCode, secret: true },
  };
}

describe("what must never happen silently, through the real CLI", function () {
  let a: EmulatorHandle;
  let b: EmulatorHandle;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    [a, b] = await Promise.all([startEmulator({ quiet: true }), startEmulator({ quiet: true })]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it("a check failure on the one-time code never prints it (plain value, misspelt field)", async () => {
    const stack = await createStack(prepareProgram(PROGRAM), "secrets", programConfig(a));
    const code = "otc-1001-b-Kx4Vm1Rc";
    for (const [mode, value] of [
      ["badCode", `${code}\n`],
      ["badCode", ` ${code}`],
      ["misspeltCode", code],
    ]) {
      await stack.setAllConfig({ "e2e:mode": { value: mode }, "e2e:badCode": { value } });
      for (const command of [["preview"], ["up", "--yes", "--skip-preview"]]) {
        const result = await pulumiWith(stack, command);
        expect(result.code, `${mode} ${command[0]}`).not.to.equal(0);
        expect(result.output, `${mode} ${command[0]}`).to.include("has a problem");
        expect(result.output, `${mode} ${command[0]}`).not.to.include("Kx4Vm1Rc");
      }
    }
  });

  it("a pending SCM app read back in the same program: plain `pulumi preview`, then `pulumi up`", async () => {
    const stack = await createStack(prepareProgram(PROGRAM), "pending", {
      ...programConfig(a),
      "e2e:mode": { value: "pendingApp" },
    });
    const preview = await pulumiWith(stack, ["preview"]);
    expect(preview.code, preview.output).to.equal(0);
    expect(preview.output).to.match(/\+ 2 to create/);
    expect(writes(a)).to.deep.equal([]);
    const up = await pulumiWith(stack, ["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).to.equal(0);
    const outputs = await stack.outputs();
    const request = a.control.state().scmAppRequests.find((r) => r.requestId === a.sample.scmAppRequestId)!;
    expect(request.state).to.equal("completed");
    expect(outputs.connectedSlug.value).to.equal(request.app.slug);
  });

  describe("one stack through grants, replacements, moves, re-assertions and a re-pointed connection", () => {
    let stack: Stack;
    let memberUrn: string;
    const member = () => a.sample.memberUserId;

    before(async () => {
      a.control.reset();
      stack = await createStack(prepareProgram(PROGRAM), "safety", programConfig(a));
    });

    it("up creates the four kinds; customTimeouts on a dynamic resource is said to have no effect", async () => {
      const up = await pulumiWith(stack, ["up", "--yes", "--skip-preview"]);
      expect(up.code, up.output).to.equal(0);
      expect(up.output).to.include("`customTimeouts` has no effect on codesec's resources");
      expect(up.output).to.include("codesec:deadlineMs");
      expect(roleOf(a, member())).to.equal("ORG_ROLE_ADMIN");
      const resources = await stateResources(stack);
      memberUrn = resources.find((r) => r.urn.endsWith("::member"))!.urn;
      for (const r of resources.filter((x) => x.type.includes("codesec:"))) {
        expect(r.outputs!.platform, r.urn).to.equal(a.baseUrl);
      }
    });

    it("`pulumi up --replace` of a UserRole with roleOnDestroy leaves the declared role, and says why", async () => {
      a.control.clearRequests();
      const up = await pulumiWith(stack, ["up", "--yes", "--skip-preview", "--replace", memberUrn]);
      expect(up.code, up.output).to.equal(0);
      expect(up.output).to.include("roleOnDestroy (ORG_ROLE_MEMBER) was not applied");
      expect(writes(a)).to.deep.equal(["updateUserRole:200"]);
      expect(roleOf(a, member())).to.equal("ORG_ROLE_ADMIN");
    });

    it("moving it into a component without an alias leaves the declared role too", async () => {
      await stack.setConfig("e2e:inComponent", { value: "true" });
      a.control.clearRequests();
      const up = await pulumiWith(stack, ["up", "--yes", "--skip-preview"]);
      expect(up.code, up.output).to.equal(0);
      expect(up.output)
        .to.match(/\+ 2 created/)
        .and.match(/- 1 deleted/);
      expect(up.output).to.include("roleOnDestroy (ORG_ROLE_MEMBER) was not applied");
      expect(roleOf(a, member())).to.equal("ORG_ROLE_ADMIN");
    });

    it("a scheduled re-assertion (triggers) sets the role again; other previews show no change", async () => {
      // Someone demoted the user in the platform's UI: no refresh can see it.
      a.control.setUserRole(member(), { deploymentId: a.deploymentId, role: "ORG_ROLE_READONLY" });
      const quiet = await pulumiWith(stack, ["preview", "--expect-no-changes"]);
      expect(quiet.code, quiet.output).to.equal(0);
      a.control.clearRequests();
      const job = await pulumiWith(stack, ["up", "--yes", "--skip-preview"], {
        CODESEC_REASSERT_AT: "2026-11-23T03:00:00Z",
      });
      expect(job.code, job.output).to.equal(0);
      expect(writes(a)).to.deep.equal(["updateUserRole:200"]);
      expect(roleOf(a, member())).to.equal("ORG_ROLE_ADMIN");
      const after = await pulumiWith(stack, ["preview", "--expect-no-changes"]);
      expect(after.code, after.output).to.equal(0);
    });

    it("re-pointed at another platform: preview, refresh and destroy stop, and nothing is written or dropped", async () => {
      await stack.setAllConfig({
        "codesec:baseUrl": { value: b.baseUrl },
        "codesec:token": { value: b.apiToken, secret: true },
      });
      const before = (await stateResources(stack)).length;
      const roleOnB = roleOf(b, member());
      a.control.clearRequests();
      b.control.clearRequests();
      for (const command of [
        ["preview"],
        ["refresh", "--yes", "--run-program"],
        ["destroy", "--yes", "--skip-preview", "--run-program"],
      ]) {
        const result = await pulumiWith(stack, command);
        expect(result.code, command[0]).not.to.equal(0);
        expect(result.output, command[0])
          .to.include(`was created on the platform at ${a.baseUrl}`)
          .and.include(`now points to ${b.baseUrl}`)
          .and.include(`pulumi config set codesec:movedFrom ${a.baseUrl}`);
      }
      expect(writes(b), "no write to the new platform").to.deep.equal([]);
      expect(writes(a), "no write to the old one").to.deep.equal([]);
      expect(roleOf(b, member())).to.equal(roleOnB);
      expect((await stateResources(stack)).length, "nothing dropped from the state").to.equal(before);
    });

    it("codesec:movedFrom moves the stack on purpose: each resource is applied again on the new platform", async () => {
      await stack.setConfig("codesec:movedFrom", { value: a.baseUrl });
      b.control.clearRequests();
      const up = await pulumiWith(stack, ["up", "--yes", "--skip-preview"]);
      expect(up.code, up.output).to.equal(0);
      expect(writes(b).sort()).to.deep.equal(
        ["provisionWorkflows:200", "subscribeScmWebhook:200", "updateUserRole:200"].sort(),
      );
      expect(roleOf(b, member())).to.equal("ORG_ROLE_ADMIN");
      for (const r of (await stateResources(stack)).filter((x) => x.type.includes("codesec:"))) {
        expect(r.outputs!.platform, r.urn).to.equal(b.baseUrl);
      }
      // Now on B: destroy demotes there, as declared.
      const destroy = await pulumiWith(stack, ["destroy", "--yes", "--skip-preview"]);
      expect(destroy.code, destroy.output).to.equal(0);
      expect(roleOf(b, member())).to.equal("ORG_ROLE_MEMBER");
    });
  });
});
