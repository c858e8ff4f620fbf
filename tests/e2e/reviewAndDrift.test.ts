import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import {
  createStack,
  prepareProgram,
  repoRoot,
  requirePulumiCli,
  runPulumi,
  scratchDir,
} from "./support/harness";
import { setUpPolicyTools, type PolicyTools } from "./support/policyLauncher";

const PROGRAM = path.join(__dirname, "programs/review");

/** What a bin of the package printed, and its exit code. */
function runBin(bin: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [path.join(repoRoot, "bin", bin), ...args], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * The review and drift products through the real CLI against the emulator, on one stack: `pulumi up` of
 * the program, then one pull request per version of it, each previewed once with the policy pack (the
 * verdict) and read by `codesec-review` (the summary); then the drift check on the same stack.
 */
describe("review and drift through the real CLI", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;
  let tools: PolicyTools;
  let packConfig: string;
  let scmAppCode: string;
  let secondCode: string;
  let secondRequestId: string;
  const seen: string[] = [];

  /** One pull request: its preview with the pack (exit code, output) and `codesec-review` of it. */
  async function pullRequest(
    change: string,
  ): Promise<{ code: number | null; output: string; summary: string }> {
    await stack.setConfig("e2e:change", { value: change });
    const dir = scratchDir(`preview-${change}`);
    const events = path.join(dir, "events.jsonl");
    const json = path.join(dir, "preview.json");
    const preview = await runPulumi(
      stack,
      [
        "preview",
        "--json",
        "--event-log",
        events,
        "--policy-pack",
        tools.pack,
        "--policy-pack-config",
        packConfig,
      ],
      "e2e-review",
    );
    const start = preview.output.indexOf("{\n");
    writeFileSync(json, preview.output.slice(start));
    const review = runBin("codesec-review.js", [json, "--events", events]);
    expect(review.code, review.stderr).to.equal(0);
    seen.push(preview.output, review.stdout, readFileSync(events, "utf8"));
    return { code: preview.code, output: preview.output, summary: review.stdout };
  }

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    // The set-up's own script writes the launcher and the pack's runtime name, here into a folder of the test.
    tools = setUpPolicyTools();
    packConfig = path.join(scratchDir("pack-config"), "pack-config.json");
    // The organization tolerates a second admin for now (advisory) but allows one.
    writeFileSync(
      packConfig,
      JSON.stringify({ "codesec-admin-count": { enforcementLevel: "advisory", maxAdmins: 1 } }),
    );

    emulator = await startEmulator({ quiet: true });
    const s = emulator.sample;
    scmAppCode = s.scmAppCode;
    const second = emulator.control.createScmAppRequest({ deploymentId: emulator.deploymentId });
    secondCode = second.code;
    secondRequestId = second.requestId;
    stack = await createStack(
      prepareProgram(PROGRAM),
      "review",
      {
        "codesec:baseUrl": { value: emulator.baseUrl },
        "codesec:token": { value: emulator.apiToken, secret: true },
        "e2e:deploymentId": { value: emulator.deploymentId },
        "e2e:userId": { value: s.userId },
        "e2e:scmConfigId": { value: s.scmConfigId },
        "e2e:scmAppRequestId": { value: s.scmAppRequestId },
        "e2e:scmAppCode": { value: s.scmAppCode, secret: true },
        "e2e:secondRequestId": { value: second.requestId },
        "e2e:secondCode": { value: second.code, secret: true },
      },
      // The launcher the set-up wrote, first on PATH; the event log (--event-log) is a debug command flag.
      { PATH: `${tools.bin}:${process.env.PATH}`, PULUMI_DEBUG_COMMANDS: "true" },
    );
    await stack.up();
  });

  after(async () => {
    await emulator?.close();
  });

  it("the pack runs through the launcher and runtime name the set-up writes (this CLI's Node host cannot run packs)", () => {
    expect(readFileSync(path.join(repoRoot, "policy/PulumiPolicy.yaml"), "utf8")).to.match(
      /^runtime: nodejs$/m,
    );
    expect(readFileSync(path.join(tools.pack, "PulumiPolicy.yaml"), "utf8")).to.match(
      /^runtime: codesec-nodejs$/m,
    );
  });

  it("PR 1 removes a UserRole with roleOnDestroy, one without, the webhooks and the SCM app", async () => {
    const pr = await pullRequest("remove");
    expect(pr.summary.split("\n")).to.deep.equal([
      "### codesec: what this change does to stack `review`",
      "",
      "4 to delete. Policies: ✅ no violation.",
      "",
      "#### ⚠️ Deletions and demotions (4)",
      "",
      '- user 503 of deployment 1001: ORG_ROLE_MEMBER → ORG_ROLE_READONLY, lowered by UserRole "rita" deleted (its roleOnDestroy)',
      '- user 504 of deployment 1001: removed from UserRole "temp" deleted; without roleOnDestroy the user keeps ORG_ROLE_READONLY on the platform',
      '- ScmApp "github" deleted',
      '- ScmWebhookSubscription "hooks" deleted',
      "",
      "#### Access changes",
      "",
      "| user | deployment | before | after | why |",
      "|---|---|---|---|---|",
      '| 503 | 1001 | ORG_ROLE_MEMBER | ORG_ROLE_READONLY | UserRole "rita" deleted: roleOnDestroy demotes the user |',
      '| 504 | 1001 | ORG_ROLE_READONLY | ORG_ROLE_READONLY (kept) | UserRole "temp" deleted without roleOnDestroy: **the user keeps the role** |',
      "",
      "<details><summary>Webhooks and SCM apps (2)</summary>",
      "",
      '- ScmApp "github" deleted: leaves the stack; the app stays connected',
      '- ScmWebhookSubscription "hooks" deleted: leaves the stack; **the subscription of scmcfg-1001-a stays** (the platform has no unsubscribe)',
      "",
      "</details>",
      "",
      "<details><summary>Raw diff</summary>",
      "",
      "```text",
      '- ScmApp "github" (delete)',
      "    code: [secret]",
      '    deploymentId: "1001"',
      '    requestId: "apprq-1001-a"',
      '- ScmWebhookSubscription "hooks" (delete)',
      '    configId: "scmcfg-1001-a"',
      '    deploymentId: "1001"',
      '- UserRole "rita" (delete)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_MEMBER"',
      '    roleOnDestroy: "ORG_ROLE_READONLY"',
      '    userId: "503"',
      '- UserRole "temp" (delete)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_READONLY"',
      '    userId: "504"',
      "```",
      "",
      "</details>",
      "",
    ]);
    expect(pr.code, pr.output).to.equal(0);
    expect(pr.output).to.include(`using pulumi-analyzer-policy-codesec-nodejs from $PATH at ${tools.bin}`);
  });

  it("PR 2 replaces a user's entry and moves another", async () => {
    const pr = await pullRequest("replace");
    expect(pr.summary.split("\n")).to.deep.equal([
      "### codesec: what this change does to stack `review`",
      "",
      "2 to create, 1 to update, 1 to replace, 1 to delete. Policies: ✅ no violation.",
      "",
      "#### ⚠️ Deletions and demotions (2)",
      "",
      '- user 503 of deployment 1001: ORG_ROLE_MEMBER → ORG_ROLE_READONLY, lowered by UserRole "rita" replaced (its roleOnDestroy)',
      '- UserRole "max" deleted',
      "",
      "#### Access changes",
      "",
      "| user | deployment | before | after | why |",
      "|---|---|---|---|---|",
      '| 502 | 1001 | ORG_ROLE_MEMBER | ORG_ROLE_MEMBER | UserRole "max" deleted: its roleOnDestroy (ORG_ROLE_READONLY) is not applied, because this plan declares the user again |',
      '| 502 | 1001 | (not in the stack) | ORG_ROLE_MEMBER | UserRole "max-moved" created: sets the role, whatever the user had |',
      '| 503 | 1001 | ORG_ROLE_MEMBER | ORG_ROLE_READONLY | UserRole "rita" replaced: roleOnDestroy demotes the user |',
      '| 505 | 1001 | (not in the stack) | ORG_ROLE_MEMBER | UserRole "rita" replaced: sets the role, whatever the user had |',
      "",
      '- ⚠️ user 502 of deployment 1001 is touched by 2 resources in this plan (UserRole "max" deleted, UserRole "max-moved" created): check that the user ends with the role you mean (ORG_ROLE_MEMBER).',
      "",
      "<details><summary>Workflow provisioning (1)</summary>",
      "",
      // Values are escaped as Markdown text (brackets, `*`): they render as written.
      '- WorkflowProvisioning "ci" updated: writes the CI workflow again into the repositories of filters {"ids":\\["7001","7002"\\]}, excludeIds (none) (ghaOptions: {"prEnabled":true,"pushBranches":\\["main"\\],"pushEnabled":true} → {"prEnabled":true,"pushBranches":\\["main","release/\\*"\\],"pushEnabled":true})',
      "",
      "</details>",
      "",
      "<details><summary>Webhooks and SCM apps (1)</summary>",
      "",
      `- ScmApp "gitlab" created: connects the SCM app of request ${secondRequestId} with its one-time code`,
      "",
      "</details>",
      "",
      "<details><summary>Raw diff</summary>",
      "",
      "```text",
      '+ ScmApp "gitlab" (create)',
      "    code: [secret]",
      '    deploymentId: "1001"',
      `    requestId: "${secondRequestId}"`,
      '+ UserRole "max-moved" (create)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_MEMBER"',
      '    roleOnDestroy: "ORG_ROLE_READONLY"',
      '    userId: "502"',
      '~ WorkflowProvisioning "ci" (update)',
      '    ghaOptions: {"prEnabled":true,"pushBranches":["main"],"pushEnabled":true} → {"prEnabled":true,"pushBranches":["main","release/*"],"pushEnabled":true}',
      '+- UserRole "rita" (replace: userId)',
      '    userId: "503" → "505"',
      '- UserRole "max" (delete)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_MEMBER"',
      '    roleOnDestroy: "ORG_ROLE_READONLY"',
      '    userId: "502"',
      "```",
      "",
      "</details>",
      "",
    ]);
    expect(pr.code, pr.output).to.equal(0);
  });

  it("PR 3 adds a second admin over the limit: advisory, so the preview passes and warns", async () => {
    const pr = await pullRequest("admin");
    expect(pr.summary.split("\n")).to.deep.equal([
      "### codesec: what this change does to stack `review`",
      "",
      "1 to create. Policies: ⚠️ 2 advisory violation(s).",
      "",
      "#### Access changes",
      "",
      "| user | deployment | before | after | why |",
      "|---|---|---|---|---|",
      '| 505 | 1001 | (not in the stack) | ORG_ROLE_ADMIN | UserRole "lee" created: sets the role, whatever the user had |',
      "",
      "#### Policy violations",
      "",
      '- ⚠️ advisory `codesec-admin-count` (stack): deployment 1001 declares 2 admins, more than the 1 allowed (maxAdmins): user 501 (UserRole "me"), user 505 (UserRole "lee"). Give one of them another role, or raise maxAdmins in the policy pack\'s config.',
      '- ⚠️ advisory `codesec-admin-role-on-destroy` (UserRole "lee"): UserRole "lee" makes user 505 ORG_ROLE_ADMIN of deployment 1001 without roleOnDestroy: once removed from the stack the user stays admin. Set roleOnDestroy (e.g. ORG_ROLE_MEMBER).',
      "",
      "<details><summary>Raw diff</summary>",
      "",
      "```text",
      '+ UserRole "lee" (create)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_ADMIN"',
      '    userId: "505"',
      "```",
      "",
      "</details>",
      "",
    ]);
    expect(pr.code, pr.output).to.equal(0);
  });

  it("PR 4 declares a user twice: mandatory, so the preview fails", async () => {
    const pr = await pullRequest("twice");
    expect(pr.summary.split("\n")).to.deep.equal([
      "### codesec: what this change does to stack `review`",
      "",
      "1 to create. Policies: ❌ 1 mandatory and 1 advisory violation(s): this change cannot be applied as it is.",
      "",
      "#### Access changes",
      "",
      "| user | deployment | before | after | why |",
      "|---|---|---|---|---|",
      '| 502 | 1001 | (not in the stack) | ORG_ROLE_ADMIN | UserRole "max-again" created: sets the role, whatever the user had |',
      "",
      "#### Policy violations",
      "",
      '- ❌ mandatory `codesec-user-declared-twice` (UserRole "max-again"): user 502 of deployment 1001 is declared 2 times: UserRole "max" (ORG_ROLE_MEMBER), UserRole "max-again" (ORG_ROLE_ADMIN). The last to apply wins, and removing one later demotes the user the other still declares: keep one declaration.',
      '- ⚠️ advisory `codesec-admin-count` (stack): deployment 1001 declares 2 admins, more than the 1 allowed (maxAdmins): user 501 (UserRole "me"), user 502 (UserRole "max-again"). Give one of them another role, or raise maxAdmins in the policy pack\'s config.',
      "",
      "<details><summary>Raw diff</summary>",
      "",
      "```text",
      '+ UserRole "max-again" (create)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_ADMIN"',
      '    roleOnDestroy: "ORG_ROLE_MEMBER"',
      '    userId: "502"',
      "```",
      "",
      "</details>",
      "",
    ]);
    expect(pr.code, pr.output).not.to.equal(0);
  });

  it("drift: a clean stack gives exit 0 and one line; the caller's role and an SCM app changed by hand give exit 2", async () => {
    const dir = scratchDir("drift");
    const refresh = async (name: string) => {
      const events = path.join(dir, `${name}.jsonl`);
      const run = await runPulumi(
        stack,
        ["refresh", "--preview-only", "--event-log", events, "--non-interactive"],
        "e2e-drift",
      );
      expect(run.code, run.output).to.equal(0);
      const markdown = runBin("codesec-drift.js", [events]);
      const json = runBin("codesec-drift.js", [events, "--format", "json"]);
      seen.push(markdown.stdout, json.stdout, readFileSync(events, "utf8"));
      return { markdown, json };
    };
    const clean = await refresh("clean");
    expect(clean.markdown.code).to.equal(0);
    expect(clean.markdown.stdout).to.equal(
      "✅ No drift in stack `review`: the platform matches the state of every resource it can read back (2 it cannot, 4 UserRole(s) only when the token owner's own: docs/drift.md)." +
        "\n",
    );
    expect(clean.json.code).to.equal(0);
    emulator.control.setUserRole(emulator.sample.userId, {
      deploymentId: emulator.deploymentId,
      role: "ORG_ROLE_MEMBER",
    });
    emulator.control.editScmApp(emulator.sample.scmAppRequestId, {
      scmName: "renamed-in-the-ui",
      codeAccess: false,
    });
    const drift = await refresh("drift");
    expect(drift.markdown.code).to.equal(2);
    expect(drift.markdown.stdout.split("\n")).to.deep.equal([
      "### ❌ codesec drift in stack `review`: 2 resource(s) differ from the platform",
      "",
      "| resource | field | state | platform |",
      "|---|---|---|---|",
      '| ScmApp "github" | codeAccess | true | false |',
      '| ScmApp "github" | scmName | "acme" | "renamed-in-the-ui" |',
      '| UserRole "me" | role | "ORG_ROLE_ADMIN" | "ORG_ROLE_MEMBER" |',
      "",
      "`pulumi up` sets a UserRole's role back; an SCM app cannot be changed back (undo it in the platform's UI, or let `pulumi up` record it).",
      "",
      "Not visible to this check (docs/drift.md):",
      "",
      '- ScmWebhookSubscription "hooks": the platform has no read operation for webhook subscriptions',
      '- WorkflowProvisioning "ci": the platform has no read operation for workflow provisioning',
      "",
      "Visible to this check only when it is the token owner's own role (docs/drift.md):",
      "",
      '- UserRole "max", UserRole "rita", UserRole "temp": the platform reads back no other user\'s role, so a change to another user\'s role made in the platform\'s UI does not show',
      "",
    ]);
    const report = JSON.parse(drift.json.stdout) as {
      drifted: {
        kind: string;
        name: string;
        fields: { field: string; state: unknown; platform: unknown }[];
      }[];
      unseen: { kind: string; name: string }[];
      exitCode: number;
    };
    expect(drift.json.code).to.equal(2);
    expect(report.exitCode).to.equal(2);
    expect(report.drifted.map((r) => [r.kind, r.name, r.fields])).to.deep.equal([
      [
        "ScmApp",
        "github",
        [
          { field: "codeAccess", state: true, platform: false },
          { field: "scmName", state: "acme", platform: "renamed-in-the-ui" },
        ],
      ],
      ["UserRole", "me", [{ field: "role", state: "ORG_ROLE_ADMIN", platform: "ORG_ROLE_MEMBER" }]],
    ]);
    expect(report.unseen.map((r) => `${r.kind} ${r.name}`)).to.deep.equal([
      "ScmWebhookSubscription hooks",
      "UserRole max",
      "UserRole rita",
      "UserRole temp",
      "WorkflowProvisioning ci",
    ]);
  });

  it("no secret reaches a preview, an event log or a report", () => {
    for (const text of seen) {
      for (const secret of [scmAppCode, secondCode, emulator.apiToken, emulator.jwt]) {
        expect(text).not.to.include(secret);
      }
    }
  });
});
