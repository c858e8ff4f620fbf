/**
 * The three examples as a user runs them: each copied to a folder of its own with the packed package
 * installed, then `pulumi preview`, `pulumi up` and `pulumi destroy` through the real CLI against the
 * emulator (default fixtures), asserting what each example promises in its README.
 */
import { expect } from "chai";
import type { ConfigMap, OutputMap, Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { roleOf, writes } from "../support/emulator";
import { readFileSync } from "node:fs";
import {
  createStack,
  exportStackAsStored,
  installProgramCopy,
  repoRoot,
  requirePulumiCli,
  stateResources,
  typeCheck,
} from "./support/harness";

const EXAMPLES = path.join(repoRoot, "examples");

function valuesOf(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
}

/** The error a failing Automation API command rejects with (it carries the CLI's stdout and stderr). */
async function failureOf(command: Promise<unknown>): Promise<string> {
  let error: unknown;
  await command.catch((e: unknown) => (error = e));
  expect(error, "the command must fail").to.be.an("error");
  return String(error);
}

describe("examples through the real Pulumi CLI", function () {
  let emulator: EmulatorHandle;
  /** Everything the engine printed, for the secrets check. */
  const printed: string[] = [];
  const onOutput = (out: string) => printed.push(out);

  function credentials(): ConfigMap {
    return {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
    };
  }

  /**
   * A stack of an example as a user starts from one: the folder copied out of the repository, `npm
   * install` there with the packed package (the example's own package.json and tsconfig.json), and the
   * example's own `tsc --noEmit`, which `checksAsCopied` asserts.
   */
  async function stackOf(example: string, stackName: string, config: ConfigMap = {}): Promise<Stack> {
    emulator.control.reset();
    const dir = installProgramCopy(path.join(EXAMPLES, example));
    copies.set(example, dir);
    return createStack(dir, stackName, { ...credentials(), ...config });
  }
  const copies = new Map<string, string>();

  /** The test that the copy installed the packed package and compiles with the example's tsconfig. */
  function checksAsCopied(example: string): void {
    it("copied out of the repository, installs the packed package and passes its own tsc --noEmit", () => {
      const dir = copies.get(example)!;
      const installed = JSON.parse(
        readFileSync(path.join(dir, "node_modules/pulumi-codesec/package.json"), "utf8"),
      ) as { version: string };
      const own = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
        version: string;
      };
      expect(installed.version, "the packed package is the one installed").to.equal(own.version);
      expect(typeCheck(dir), "tsc --noEmit").to.equal("");
    });
  }

  before(async () => {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
  });

  after(async () => {
    await emulator?.close();
  });

  describe("org-config", () => {
    let stack: Stack;

    before(async () => {
      stack = await stackOf("org-config", "dev");
    });

    checksAsCopied("org-config");

    it("preview plans the six resources with the default config, calling no mutating operation", async () => {
      const preview = await stack.preview({ onOutput });
      expect(preview.changeSummary).to.deep.equal({ create: 7 });
      expect(writes(emulator)).to.deep.equal([]);
    });

    it("up applies roles, workflow, webhooks and the adopted SCM app, and exports the data sources", async () => {
      const up = await stack.up({ onOutput });
      expect(up.summary.resourceChanges).to.deep.equal({ create: 7 });
      const out = valuesOf(up.outputs);
      const state = emulator.control.state();

      expect(out.teamRoles).to.deep.equal({
        "501": "ORG_ROLE_ADMIN",
        "502": "ORG_ROLE_ADMIN",
        "503": "ORG_ROLE_MEMBER",
      });
      expect([roleOf(emulator, "501"), roleOf(emulator, "502"), roleOf(emulator, "503")]).to.deep.equal([
        "ORG_ROLE_ADMIN",
        "ORG_ROLE_ADMIN",
        "ORG_ROLE_MEMBER",
      ]);
      const provisioned = state.projects.filter((p) => p.workflow).map((p) => p.id);
      expect(provisioned).to.deep.equal(["7001", "7002", "7006"]);
      expect(Object.keys(out.workflowFiles as object).sort()).to.deep.equal(provisioned);
      const config = state.scmConfigurations.find((c) => c.configId === "scmcfg-1001-a")!;
      expect(out.webhookEvents).to.deep.equal(config.subscription?.events).and.have.length.greaterThan(0);
      expect(out.scmApp).to.deep.equal({
        slug: "codesec-acme-legacy",
        scmName: "acme-legacy",
        codeAccess: true,
        baseUrl: "https://scm.example.test",
      });
      expect(
        writes(emulator).filter((c) => c.startsWith("completeScmAppRequest")),
        "adopted",
      ).to.deep.equal([]);
      expect(out.currentUser).to.deep.equal({ id: "501", login: "ada-admin", orgRole: "ORG_ROLE_ADMIN" });
      expect(out.latestScan).to.deep.equal({
        id: "3001",
        status: "SCAN_STATUS_COMPLETED",
        projectId: "7001",
        branch: "refs/heads/main",
        findings: 7,
      });
      expect((out.notificationRuleProblems as { id: number }[]).map((r) => r.id)).to.deep.equal([4, 5]);
    });

    it("the drift check passes right after, and fails once the admin's own role changed out of band", async () => {
      emulator.control.clearRequests();
      const clean = await stack.preview({ onOutput, refresh: true, expectNoChanges: true });
      expect(clean.changeSummary).to.deep.equal({ same: 7 });
      expect(writes(emulator)).to.deep.equal([]);

      emulator.control.setUserRole("501", { deploymentId: emulator.deploymentId, role: "ORG_ROLE_READONLY" });
      try {
        const failure = await failureOf(stack.preview({ onOutput, refresh: true, expectNoChanges: true }));
        expect(failure).to.match(/no changes were expected/);
      } finally {
        emulator.control.setUserRole("501", { deploymentId: emulator.deploymentId, role: "ORG_ROLE_ADMIN" });
      }
    });

    it("connects the pending SCM app with a secret one-time code, which stays out of state and output", async () => {
      const code = emulator.sample.scmAppCode;
      await stack.setConfig("scmAppRequestId", { value: "apprq-1001-a" });
      await stack.setConfig("scmAppCode", { value: code, secret: true });
      const up = await stack.up({ onOutput });
      expect(up.summary.resourceChanges).to.deep.equal({ same: 6, replace: 1 });
      const request = emulator.control.state().scmAppRequests.find((r) => r.requestId === "apprq-1001-a")!;
      expect(request.state).to.equal("completed");
      expect(valuesOf(up.outputs).scmApp).to.include({
        slug: request.app.slug,
        scmName: request.app.scmName,
      });

      // The state as stored (the Automation API's exportStack decrypts secrets).
      const stored = exportStackAsStored(stack);
      const text = stored + printed.join("");
      for (const [name, secret] of Object.entries({ code, apiToken: emulator.apiToken })) {
        const at = text.indexOf(secret);
        expect(at, `${name} in the state or the output: ...${text.slice(at - 300, at + 50)}`).to.equal(-1);
      }
    });

    it("destroy demotes the users with roleOnDestroy and leaves the admin's own role", async () => {
      const destroy = await stack.destroy({ onOutput });
      expect(destroy.summary.resourceChanges).to.deep.equal({ delete: 7 });
      expect([roleOf(emulator, "501"), roleOf(emulator, "502"), roleOf(emulator, "503")]).to.deep.equal([
        "ORG_ROLE_ADMIN",
        "ORG_ROLE_MEMBER",
        "ORG_ROLE_READONLY",
      ]);
      expect(await stateResources(stack)).to.deep.equal([]);
    });
  });

  describe("drift-check", () => {
    const problems = [
      'notification rule 4 "old-slack" (slack): disabled',
      'notification rule 5 "broken-webhook" (webhook): config_error: webhook endpoint answered 404 Not Found',
    ];
    let stack: Stack;

    before(async () => {
      stack = await stackOf("drift-check", "health", { failOnProblems: { value: "false" } });
    });

    checksAsCopied("drift-check");

    it("with failOnProblems false, preview and up report the fixture's broken and disabled rules", async () => {
      const preview = await stack.preview({ onOutput });
      expect(preview.changeSummary).to.deep.equal({ create: 1 });
      expect(preview.stdout).to.include(problems[0]).and.include(problems[1]);

      const up = await stack.up({ onOutput });
      const report = valuesOf(up.outputs).healthReport as Record<string, unknown>;
      expect(report.deploymentId).to.equal("1001");
      expect(report.healthy).to.equal(false);
      expect(report.problems).to.deep.equal(problems);
      expect(report.scans).to.deep.equal([
        {
          id: "3001",
          status: "SCAN_STATUS_COMPLETED",
          projectId: "7001",
          completeTime: "2025-06-02T10:05:00Z",
          findings: 7,
          ok: true,
        },
      ]);
      const rules = report.notificationRules as { total: number; withProblems: { id: number }[] };
      expect(rules.total).to.equal(7);
      expect(rules.withProblems.map((r) => r.id)).to.deep.equal([4, 5]);
      expect(writes(emulator)).to.deep.equal([]);
    });

    it("with failOnProblems true (the default), the run fails naming every problem", async () => {
      await stack.removeConfig("failOnProblems");
      const failure = await failureOf(stack.up({ onOutput }));
      expect(failure).to.include("deployment 1001 has 2 health problem(s)");
      for (const problem of problems) expect(failure).to.include(problem);
    });

    it("a scan in a bad state or that cannot be read is a problem; acknowledged rules are not", async () => {
      await stack.setConfig("failOnProblems", { value: "true" });
      await stack.setConfig("ignoreRuleIds", { value: "[4, 5]" });
      await stack.setConfig("scanIds", { value: '["3001", "3002", "9999"]' });
      await stack.setConfig("okScanStatuses", { value: '["SCAN_STATUS_COMPLETED"]' });
      const failure = await failureOf(stack.up({ onOutput }));
      expect(failure).to.include("2 health problem(s)");
      expect(failure).to.include("scan 3002 (project 7002) has status SCAN_STATUS_RUNNING");
      expect(failure).to.match(/scan 9999 could not be read: .*404/);
      // Only the error (after a failed `pulumi up` the CLI also prints the last update's outputs).
      const error = failure.slice(
        failure.indexOf("error: deployment"),
        failure.indexOf("(set config failOnProblems"),
      );
      expect(error).to.include("2 health problem(s)").and.not.include("old-slack");

      await stack.setConfig("scanIds", { value: '["3001"]' });
      const up = await stack.up({ onOutput });
      const report = valuesOf(up.outputs).healthReport as { healthy: boolean; problems: string[] };
      expect(report).to.include({ healthy: true });
      expect(report.problems).to.deep.equal([]);
    });

    it("destroy leaves an empty stack", async () => {
      const destroy = await stack.destroy({ onOutput });
      expect(destroy.summary.resourceChanges).to.deep.equal({ delete: 1 });
    });
  });

  describe("pr-preview", () => {
    let stack: Stack;

    before(async () => {
      stack = await stackOf("pr-preview", "prod");
    });

    checksAsCopied("pr-preview");

    it("preview, then up, applies the default team", async () => {
      const preview = await stack.preview({ onOutput, diff: true });
      expect(preview.changeSummary).to.deep.equal({ create: 3 });
      expect(preview.stdout).to.match(/\+ pulumi-nodejs:dynamic\/codesec:UserRole: \(create\)/);
      const up = await stack.up({ onOutput });
      expect(valuesOf(up.outputs).teamRoles).to.deep.equal({
        max: "ORG_ROLE_ADMIN",
        rita: "ORG_ROLE_MEMBER",
      });
      expect([roleOf(emulator, "502"), roleOf(emulator, "503")]).to.deep.equal([
        "ORG_ROLE_ADMIN",
        "ORG_ROLE_MEMBER",
      ]);
    });

    it("the preview --diff a reviewer reads shows a role change as an update and a new user as a replacement", async () => {
      await stack.setConfig("team", {
        value: JSON.stringify([
          { name: "max", userId: "502", role: "ORG_ROLE_READONLY", roleOnDestroy: "ORG_ROLE_MEMBER" },
          { name: "rita", userId: "504", role: "ORG_ROLE_MEMBER" },
        ]),
      });
      emulator.control.clearRequests();
      const preview = await stack.preview({ onOutput, diff: true });
      expect(preview.changeSummary).to.deep.equal({ same: 1, update: 1, replace: 1 });
      expect(preview.stdout)
        .to.match(/~ pulumi-nodejs:dynamic\/codesec:UserRole: \(update\)/)
        .and.match(/role\s*:\s*"ORG_ROLE_ADMIN" => "ORG_ROLE_READONLY"/)
        .and.match(/\+-pulumi-nodejs:dynamic\/codesec:UserRole: \(replace\)/)
        .and.match(/userId\s*:\s*"503" => "504"/);
      expect(writes(emulator)).to.deep.equal([]);
      await stack.removeConfig("team");
    });

    it("destroy demotes to roleOnDestroy", async () => {
      const destroy = await stack.destroy({ onOutput });
      expect(destroy.summary.resourceChanges).to.deep.equal({ delete: 3 });
      expect([roleOf(emulator, "502"), roleOf(emulator, "503")]).to.deep.equal([
        "ORG_ROLE_MEMBER",
        "ORG_ROLE_READONLY",
      ]);
    });
  });
});
