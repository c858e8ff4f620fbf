/**
 * The example workflows' shell steps, run exactly as written: each `run:` step of
 * examples/<name>/.github/workflows/<name>.yml in order, with bash, against the emulator and the real
 * Pulumi CLI (support/workflowRunner.ts). GitHub's own pieces are stood in for, each as far as it goes:
 *
 * - `actions/checkout`: the checkout is a folder laid out as the workflow's `env` says, holding the
 *   examples copied out of this repository (installed with the packed package standing in for the
 *   registry's, as examples.test.ts does), a copy of `policy/` as docs/review-and-drift.md tells a user to
 *   make it, and the stack config a user would have committed;
 * - `actions/setup-node`: the Node.js running this test, whose major version the step must ask for;
 * - `pulumi/actions` (no `command`: it only installs the CLI): this repository's CLI on PATH, whose version
 *   the step's range must accept. That CLI's Node.js language host cannot run policy packs, so the stand-in
 *   also does what `npm run setup` does for it (scripts/setup-policy.sh: the analyzer launcher on PATH and
 *   the pack's runtime renamed), the one place where the checkout differs from a user's;
 * - GitHub's REST API (`GITHUB_API_URL`, where `codesec-review --post-comment` posts the comment): the
 *   review tests' local stand-in (tests/support/fakeGitHub.ts), with the workflow's token;
 * - `github/codeql-action/upload-sarif`: a stand-in that reads the file it is given as SARIF 2.1.0 and
 *   records it;
 * - `vars` / `secrets`: the emulator's address and token, a local file backend and its passphrase.
 *
 * Asserted: what a reviewer and a CI owner see, i.e. the PR comment, the steps' exit codes, the job's
 * conclusion and its summary, and no error in the output of a step that exits 0 unless the test expects
 * one (the runner checks it).
 */
import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { FakeGitHub, type StoredComment } from "../support/fakeGitHub";
import { satisfies } from "../../scripts/examples-check";
import {
  createStack,
  E2E_PASSPHRASE,
  installProgramCopy,
  repoRoot,
  requirePulumiCli,
  scratchDir,
  stackStateOf,
} from "./support/harness";
import {
  readWorkflow,
  runJob,
  runLog,
  type ActionStandIn,
  type JobResult,
  type RunnerOptions,
} from "./support/workflowRunner";
import { setUpPolicyTools, useLauncherRuntime, type PolicyTools } from "./support/policyLauncher";

const EXAMPLES = path.join(repoRoot, "examples");
const GITHUB_TOKEN = "ghs_standInTokenOfTheWorkflowRun0123456789";
const REPOSITORY = "acme/infra";
const PR_NUMBER = 42;
/** A platform token the emulator does not know. */
const BAD_TOKEN = "not-a-valid-token-0123456789";

/** Lines the Pulumi CLI prints while it works, which a report must not carry. */
const PROGRESS_LINE = /^@ |\b(previewing|updating|refreshing|destroying)( update)?\.{3,}/m;

/** One comment on the stand-in of GitHub. */
type Comment = StoredComment;

/** The run's text a secret must never reach: every step's output, the summary and the comments. */
function everythingPrinted(job: JobResult, comments: Comment[] = []): string {
  return [
    ...job.steps.flatMap((step) => [step.stdout, step.stderr, step.summary]),
    ...comments.map((c) => c.body),
  ].join("\n");
}

/** None of the run's secrets (the platform token it used, the passphrase, the GitHub token) is printed. */
function expectNoSecretPrinted(job: JobResult, token: string, comments: Comment[] = []): void {
  const printed = everythingPrinted(job, comments);
  for (const [name, secret] of Object.entries({ token, E2E_PASSPHRASE, GITHUB_TOKEN })) {
    expect(printed.includes(secret), `${name} printed`).to.equal(false);
  }
}

describe("the example workflows' shell steps, as written, against the emulator and the real CLI", function () {
  let emulator: EmulatorHandle;
  /** The CLI's version, for the `pulumi/actions` stand-in. */
  let cliVersion: string;
  /** Where scripts/setup-policy.sh wrote the policy launcher (a folder of this test). */
  let policyTools: PolicyTools;

  before(async () => {
    cliVersion = requirePulumiCli();
    console.log(`      using ${cliVersion}`);
    policyTools = setUpPolicyTools();
    emulator = await startEmulator({ quiet: true });
  });

  after(async () => {
    await emulator?.close();
  });

  /** The stand-ins of the three actions both workflows use. */
  function actions(workspace: string, checkout: () => void): Record<string, ActionStandIn> {
    return {
      "actions/checkout": () => {
        checkout();
        return {};
      },
      "actions/setup-node": (inputs) => {
        expect(inputs["node-version"], "setup-node asks for the Node.js major this test runs on").to.equal(
          process.versions.node.split(".")[0],
        );
        return { addPath: [path.dirname(process.execPath)] };
      },
      "pulumi/actions": (inputs) => {
        expect(inputs.command, "pulumi/actions only installs the CLI (no command)").to.equal(undefined);
        const range = inputs["pulumi-version"];
        expect(
          satisfies(cliVersion.replace(/^v/, ""), range),
          `pulumi-version ${range} accepts ${cliVersion}`,
        ).to.equal(true);
        // What an official CLI does for a `runtime: nodejs` pack, this CLI does with the set-up's launcher.
        const policy = path.join(workspace, "policy");
        if (existsSync(path.join(policy, "PulumiPolicy.yaml"))) useLauncherRuntime(policy);
        const cli = realpathSync(
          execFileSync("bash", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim(),
        );
        return { addPath: [path.dirname(cli), policyTools.bin] };
      },
    };
  }

  /**
   * A runner: its home, its temp folder and the repository's vars and secrets (the state of `stack`: its
   * backend and passphrase, as the harness made them).
   */
  function runner(
    workspace: string,
    stack: Stack,
    standIns: Record<string, ActionStandIn>,
    github: Record<string, unknown>,
    token = emulator.apiToken,
  ): RunnerOptions {
    const root = scratchDir("runner");
    for (const dir of ["home", "temp"]) mkdirSync(path.join(root, dir));
    return {
      workspace,
      runnerTemp: path.join(root, "temp"),
      home: path.join(root, "home"),
      path: [],
      vars: { CODESEC_BASE_URL: emulator.baseUrl, PULUMI_BACKEND_URL: stackStateOf(stack).backendUrl },
      secrets: {
        CODESEC_TOKEN: token,
        PULUMI_CONFIG_PASSPHRASE: stackStateOf(stack).passphrase,
        GITHUB_TOKEN,
      },
      github: { repository: REPOSITORY, ...github },
      actions: standIns,
      extraEnv: { TMPDIR: process.env.TMPDIR ?? "/tmp" },
    };
  }

  function stepNamed(job: JobResult, name: string) {
    const step = job.steps.find((s) => s.name === name);
    if (!step) throw new Error(`no step ${name} in ${job.steps.map((s) => s.name).join(", ")}`);
    return step;
  }

  describe("pr-preview", () => {
    const workflowFile = path.join(EXAMPLES, "pr-preview/.github/workflows/pr-preview.yml");
    const workflow = readWorkflow(workflowFile);
    const env = workflow.env as Record<string, string>;
    let checkout: string;
    let stack: Stack;
    let checkedOut = false;

    /** The pull request's event, from a branch of the repository itself. */
    const pullRequest = (headRepo = REPOSITORY) => ({
      event_name: "pull_request",
      event: { pull_request: { number: PR_NUMBER, head: { repo: { full_name: headRepo } } } },
    });

    before(async function () {
      checkout = scratchDir("checkout-pr-preview");
      // The repository as the workflow's env lays it out: the program, the policy pack, the workflow.
      installProgramCopy(path.join(EXAMPLES, "pr-preview"), path.join(checkout, env.PROGRAM_DIR));
      copyPolicyPack(path.join(checkout, env.POLICY_DIR));
      mkdirSync(path.join(checkout, ".github/workflows"), { recursive: true });
      cpSync(workflowFile, path.join(checkout, ".github/workflows/pr-preview.yml"));
      // The main branch, applied: `pulumi up` of the default team (users 502 and 503).
      stack = await createStack(
        path.join(checkout, env.PROGRAM_DIR),
        env.STACK,
        {},
        {
          CODESEC_BASE_URL: emulator.baseUrl,
          CODESEC_TOKEN: emulator.apiToken,
        },
      );
      emulator.control.reset();
      await stack.up();
    });

    /** The step that records the preview's exit code: it exits 0 after a failed preview, errors shown. */
    const PREVIEW_STEP = "pulumi preview with the policy pack";

    /**
     * Runs the workflow's `preview` job on the checkout as the pull request left it; `expectErrors`: the
     * steps that exit 0 with an error shown.
     */
    async function run(
      github = pullRequest(),
      expectErrors: string[] = [],
    ): Promise<{ job: JobResult; comments: Comment[] }> {
      const job = await runJob(workflow, "preview", {
        ...runner(
          checkout,
          stack,
          {
            ...actions(checkout, () => (checkedOut = true)),
            "github/codeql-action/upload-sarif": (inputs) => {
              const sarif = JSON.parse(readFileSync(inputs.sarif_file, "utf8")) as SarifLog;
              expect(sarif.version, "upload-sarif is given SARIF 2.1.0").to.equal("2.1.0");
              uploads.push({ category: inputs.category, sarif });
              return {};
            },
          },
          { ...github, api_url: gitHub.apiUrl },
        ),
        expectErrors,
      });
      return { job, comments: gitHub.comments.map((comment) => ({ ...comment })) };
    }

    /** A SARIF log, as far as the tests read it. */
    interface SarifLog {
      version: string;
      runs: { results: { ruleId: string; message: { text: string } }[] }[];
    }

    /** The local stand-in of GitHub's REST API the posting step talks to, and what was uploaded. */
    let gitHub: FakeGitHub;
    let uploads: { category: string; sarif: SarifLog }[];
    beforeEach(async () => {
      gitHub = await FakeGitHub.start(GITHUB_TOKEN, REPOSITORY, PR_NUMBER);
      uploads = [];
    });
    afterEach(async () => {
      await gitHub.close();
    });

    const MARKER = "<!-- codesec-review stack=organization/codesec-pr-preview/prod -->";
    const SUMMARY_STEP = "Reviewer's summary, as a PR comment";
    const POLICY_STEP = "Policy violations, for code scanning and as annotations";

    it("a pull request that removes a user and adds one: the comment shows the demotion and the grant, a second run edits it, the job passes", async () => {
      await stack.setConfig("team", {
        value: JSON.stringify([
          { name: "max", userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
          { name: "lee", userId: "505", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
        ]),
      });
      const { job, comments } = await run();
      expect(checkedOut, "the checkout step ran").to.equal(true);
      expect(
        job.steps.map((s) => [s.name, s.outcome, s.exitCode]),
        runLog(job),
      ).to.deep.equal([
        ["actions/checkout@v4", "success", undefined],
        ["actions/setup-node@v4", "success", undefined],
        ["Install the Pulumi CLI", "success", undefined],
        ["Install the program's and the policy pack's packages", "success", 0],
        ["pulumi preview with the policy pack", "success", 0],
        [SUMMARY_STEP, "success", 0],
        [POLICY_STEP, "success", 0],
        ["Upload the policy violations to code scanning", "success", undefined],
        ["Fail on a mandatory policy violation or a failed preview", "skipped", undefined],
      ]);
      expect(stepNamed(job, "pulumi preview with the policy pack").outputs).to.deep.equal({
        "exit-code": "0",
      });
      expect(job.conclusion).to.equal("success");

      // One comment, by the workflow's account, through the API with the workflow's token.
      expect(comments.map((c) => c.user.login)).to.deep.equal(["github-actions[bot]"]);
      expect(gitHub.requests.map((r) => [r.method, r.authorization])).to.deep.equal([
        ["GET", `Bearer ${GITHUB_TOKEN}`],
        ["POST", `Bearer ${GITHUB_TOKEN}`],
      ]);
      expect(stepNamed(job, SUMMARY_STEP).stderr).to.match(
        /^codesec-review: created the pull request's comment /,
      );
      const body = comments[0].body;
      expect(body.split("\n").slice(0, 17)).to.deep.equal([
        MARKER,
        "### codesec: what this change does to stack `prod`",
        "",
        "1 to create, 1 to delete. Policies: ✅ no violation.",
        "",
        "#### ⚠️ Deletions and demotions (1)",
        "",
        '- user 503 of deployment 1001: ORG_ROLE_MEMBER → ORG_ROLE_READONLY, lowered by UserRole "rita" deleted (its roleOnDestroy)',
        "",
        "#### Access changes",
        "",
        "| user | deployment | before | after | why |",
        "|---|---|---|---|---|",
        '| 503 | 1001 | ORG_ROLE_MEMBER | ORG_ROLE_READONLY | UserRole "rita" deleted: roleOnDestroy demotes the user |',
        '| 505 | 1001 | (not in the stack) | ORG_ROLE_MEMBER | UserRole "lee" created: sets the role, whatever the user had |',
        "",
        "<details><summary>Raw diff</summary>",
      ]);
      expect(body).not.to.include("pulumi-nodejs:dynamic").and.not.to.match(PROGRESS_LINE);
      // The same Markdown is the job summary.
      expect(job.summary).to.equal(body);
      // No violation: an empty SARIF run for code scanning, and no annotation.
      expect(
        uploads.map((u) => [u.category, u.sarif.runs.flatMap((run) => run.results).length]),
      ).to.deep.equal([["codesec-policy", 0]]);
      expect(stepNamed(job, POLICY_STEP).stdout).to.equal("");
      expectNoSecretPrinted(job, emulator.apiToken, comments);

      // The next push: the same comment is edited, not a second one posted.
      await stack.setConfig("team", {
        value: JSON.stringify([
          { name: "max", userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
          { name: "rita", userId: "503", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
          { name: "lee", userId: "505", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
        ]),
      });
      const second = await run();
      expect(second.job.conclusion, runLog(second.job)).to.equal("success");
      expect(stepNamed(second.job, SUMMARY_STEP).stderr).to.match(
        /^codesec-review: updated the pull request's comment /,
      );
      expect(second.comments.map((c) => [c.id, c.body.split("\n").slice(0, 4)])).to.deep.equal([
        [
          comments[0].id,
          [
            MARKER,
            "### codesec: what this change does to stack `prod`",
            "",
            "1 to create. Policies: ✅ no violation.",
          ],
        ],
      ]);
      expect(gitHub.requests.slice(2).map((r) => r.method)).to.deep.equal(["GET", "PATCH"]);
    });

    it("a pull request that declares a user twice: the comment shows the mandatory violation, and the job fails after posting it", async () => {
      await stack.setConfig("team", {
        value: JSON.stringify([
          { name: "max", userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
          { name: "rita", userId: "503", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
          { name: "max-again", userId: "502", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
        ]),
      });
      // The policy step's annotation is an error line, as it should be.
      const { job, comments } = await run(pullRequest(), [PREVIEW_STEP, POLICY_STEP]);
      const preview = stepNamed(job, PREVIEW_STEP);
      expect(preview.outcome, "the step records the exit code and succeeds").to.equal("success");
      expect(preview.outputs["exit-code"]).to.not.equal("0");
      const fail = stepNamed(job, "Fail on a mandatory policy violation or a failed preview");
      expect([fail.outcome, fail.exitCode]).to.deep.equal(["failure", 1]);
      expect(fail.stderr).to.equal(
        `pulumi preview exited with ${preview.outputs["exit-code"]}: see the summary\n`,
      );
      expect(job.conclusion).to.equal("failure");

      expect(comments).to.have.length(1);
      const lines = comments[0].body.split("\n");
      expect(lines[3]).to.equal(
        "1 to create. Policies: ❌ 1 mandatory violation(s): this change cannot be applied as it is.",
      );
      expect(lines).to.include(
        '- ❌ mandatory `codesec-user-declared-twice` (UserRole "max-again"): user 502 of deployment 1001 is declared 2 times: UserRole "max" (ORG_ROLE_ADMIN), UserRole "max-again" (ORG_ROLE_MEMBER). The last to apply wins, and removing one later demotes the user the other still declares: keep one declaration.',
      );
      // The violation for code scanning, and as an annotation on the program's project file.
      expect(
        uploads.flatMap((u) => u.sarif.runs.flatMap((r) => r.results.map((result) => result.ruleId))),
      ).to.deep.equal(["codesec-user-declared-twice"]);
      expect(stepNamed(job, POLICY_STEP).stdout).to.match(
        /^::error file=examples\/pr-preview\/[^,]+,line=\d+(,col=\d+)?,title=mandatory policy codesec-user-declared-twice::/m,
      );
      expectNoSecretPrinted(job, emulator.apiToken, comments);
    });

    it("a pull request that moves the policy pack away: the comment says the preview did not run, the job fails", async () => {
      await stack.setConfig("team", {
        value: JSON.stringify([
          { name: "max", userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
        ]),
      });
      // The workflow's POLICY_DIR no longer holds a pack: the CLI cannot load it and stops before the
      // engine starts, writing `{}` and an event log without a summary.
      const manifest = path.join(checkout, env.POLICY_DIR, "PulumiPolicy.yaml");
      renameSync(manifest, `${manifest}.moved`);
      let result: { job: JobResult; comments: Comment[] };
      try {
        result = await run(pullRequest(), [PREVIEW_STEP, POLICY_STEP]);
      } finally {
        renameSync(`${manifest}.moved`, manifest);
      }
      const { job, comments } = result;
      expect(
        job.steps.slice(4).map((s) => [s.name, s.outcome, s.exitCode]),
        runLog(job),
      ).to.deep.equal([
        ["pulumi preview with the policy pack", "success", 0],
        [SUMMARY_STEP, "success", 0],
        [POLICY_STEP, "success", 0],
        ["Upload the policy violations to code scanning", "success", undefined],
        ["Fail on a mandatory policy violation or a failed preview", "failure", 1],
      ]);
      // Nothing was checked: the annotations say so.
      expect(stepNamed(job, POLICY_STEP).stdout).to.match(
        /^::warning title=codesec policies not fully checked::/m,
      );
      expect(stepNamed(job, "pulumi preview with the policy pack").outputs["exit-code"]).not.to.equal("0");
      expect(job.conclusion).to.equal("failure");
      expect(comments.map((c) => c.body)).to.deep.equal([
        `${MARKER}\n### codesec: what this change does\n\n` +
          "❗ The preview did not run: the Pulumi CLI wrote no plan (its error is in the job's log). Nothing was checked, policies included.\n",
      ]);
      expect(job.summary).to.equal(comments[0].body);
      expectNoSecretPrinted(job, emulator.apiToken, comments);
    });

    it("a pull request from a fork gets no job (GitHub gives it no secrets): nothing runs, nothing is posted", async () => {
      const { job, comments } = await run(pullRequest("someone/infra-fork"));
      expect(job).to.deep.equal({ conclusion: "skipped", steps: [], summary: "" });
      expect(comments).to.deep.equal([]);
      expect(gitHub.requests).to.deep.equal([]);
    });
  });

  describe("drift-check", () => {
    const workflowFile = path.join(EXAMPLES, "drift-check/.github/workflows/drift-check.yml");
    const workflow = readWorkflow(workflowFile);
    const env = workflow.env as Record<string, string>;
    const DRIFT_STEP = "Drift check (org-config stacks)";
    let checkout: string;
    /** The stacks of ORG_STACKS, on one state backend. */
    let stacks: Stack[];
    /** The second stack's organization: another platform, named (with its token) in the stack's config. */
    let otherPlatform: EmulatorHandle;
    /** The Actions cache: entries by key, each a file's content. */
    let cache: Map<string, string>;
    /** Warnings the cache actions gave (the real actions warn, and do not fail, where these do). */
    let cacheWarnings: string[];
    let runId = 1000;
    /** A scheduled run, or (`rerun`) another attempt of the last one. */
    let attempt = 1;
    const schedule = (rerun = false) => {
      attempt = rerun ? attempt + 1 : 1;
      return {
        event_name: "schedule",
        event: { schedule: "17 6 * * 1-5" },
        run_id: rerun ? runId : ++runId,
        run_attempt: attempt,
      };
    };

    before(async function () {
      const [prod, staging, ...others] = env.ORG_STACKS.split(" ");
      expect(others, "the test sets up two stacks").to.deep.equal([]);
      otherPlatform = await startEmulator({ quiet: true });
      checkout = scratchDir("checkout-drift-check");
      installProgramCopy(path.join(EXAMPLES, "org-config"), path.join(checkout, env.ORG_CONFIG_DIR));
      installProgramCopy(path.join(EXAMPLES, "drift-check"), path.join(checkout, env.HEALTH_DIR));
      mkdirSync(path.join(checkout, ".github/workflows"), { recursive: true });
      cpSync(workflowFile, path.join(checkout, ".github/workflows/drift-check.yml"));
      // The health stack's committed config: the fixtures' notification rules 4 (disabled) and 5 (broken)
      // are acknowledged, so the job's conclusion is the drift check's.
      writeFileSync(
        path.join(checkout, env.HEALTH_DIR, `Pulumi.${env.HEALTH_STACK}.yaml`),
        "config:\n  codesec-drift-check:ignoreRuleIds: [4, 5]\n",
      );
      // The org-config stacks, applied: the first with credentials from the environment (as the workflow
      // passes them), the second with its own platform and token in its (committed, encrypted) config.
      const orgDir = path.join(checkout, env.ORG_CONFIG_DIR);
      const credentials = { CODESEC_BASE_URL: emulator.baseUrl, CODESEC_TOKEN: emulator.apiToken };
      stacks = [
        await createStack(orgDir, prod, {}, credentials),
        await createStack(
          orgDir,
          staging,
          {
            "codesec:baseUrl": { value: otherPlatform.baseUrl },
            "codesec:token": { value: otherPlatform.apiToken, secret: true },
          },
          credentials,
        ),
      ];
      emulator.control.reset();
      for (const stack of stacks) await stack.up();
    });

    after(async () => {
      await otherPlatform?.close();
    });

    beforeEach(() => {
      cache = new Map();
      cacheWarnings = [];
    });

    /**
     * actions/cache/restore and actions/cache/save, keeping entries in `cache` as the real actions do: the
     * exact key, else the newest entry whose key starts with a restore key; a key saved once is kept (a
     * second save of it only warns).
     */
    const cacheActions: Record<string, ActionStandIn> = {
      "actions/cache/restore": (inputs) => {
        const file = path.join(checkout, inputs.path);
        const hit =
          cache.get(inputs.key) ??
          [...cache].reverse().find(([key]) => key.startsWith(inputs["restore-keys"].trim()))?.[1];
        if (hit !== undefined) {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, hit);
        } else if (existsSync(file)) rmSync(file);
        return {};
      },
      "actions/cache/save": (inputs) => {
        const file = path.join(checkout, inputs.path);
        if (cache.has(inputs.key)) cacheWarnings.push(`Failed to save: cache entry ${inputs.key} exists`);
        else if (existsSync(file)) cache.set(inputs.key, readFileSync(file, "utf8"));
        else cacheWarnings.push(`Path Validation Error: ${inputs.path} does not exist`);
        return {};
      },
    };

    async function run(token?: string, rerun = false): Promise<JobResult> {
      return runJob(
        workflow,
        "drift-check",
        runner(
          checkout,
          stacks[0],
          { ...actions(checkout, () => undefined), ...cacheActions },
          schedule(rerun),
          token,
        ),
      );
    }

    /** The summary's drift part (the drift step's) and health part (the last step's). */
    function summaries(job: JobResult): { drift: string; health: string } {
      return {
        drift: stepNamed(job, DRIFT_STEP).summary,
        health: stepNamed(job, "Job summary (health)").summary,
      };
    }

    /** Drift made behind Pulumi's back in the first stack's organization, undone after `during`. */
    async function withDrift<T>(during: () => Promise<T>): Promise<T> {
      emulator.control.setUserRole(emulator.sample.userId, {
        deploymentId: emulator.deploymentId,
        role: "ORG_ROLE_MEMBER",
      });
      emulator.control.editScmApp("apprq-1001-done", { scmName: "renamed-in-the-ui" });
      try {
        return await during();
      } finally {
        emulator.control.setUserRole(emulator.sample.userId, {
          deploymentId: emulator.deploymentId,
          role: "ORG_ROLE_ADMIN",
        });
        emulator.control.editScmApp("apprq-1001-done", { scmName: "acme-legacy" });
      }
    }

    it("no drift: the drift step reports both stacks and exits 0, the report is kept, the job passes", async () => {
      const job = await run();
      expect(
        job.steps.map((s) => [s.name, s.outcome, s.exitCode]),
        runLog(job),
      ).to.deep.equal([
        ["actions/checkout@v4", "success", undefined],
        ["actions/setup-node@v4", "success", undefined],
        ["Install the Pulumi CLI", "success", undefined],
        ["Install the programs' packages", "success", 0],
        ["Restore the last drift report", "success", undefined],
        [DRIFT_STEP, "success", 0],
        ["Keep this drift report for the next run", "success", undefined],
        ["Health report", "success", 0],
        ["Job summary (health)", "success", 0],
      ]);
      expect(job.conclusion).to.equal("success");
      const { drift, health } = summaries(job);
      expect(drift).to.equal(
        [
          "### ✅ No drift across 2 stack(s)",
          "",
          "| stack | result |",
          "|---|---|",
          "| prod | ✅ no drift |",
          "| staging | ✅ no drift |",
          "",
          "Total: 2 stack(s), 0 failed; 0 resource(s) differ (0 new); 0 resolved (no baseline: every drift counts as new).",
          "",
          "Not visible to this check, or only for the token owner's own role: 4 it cannot, 6 UserRole(s) only when the token owner's own (docs/drift.md).",
          "",
        ].join("\n"),
      );
      expect(stepNamed(job, DRIFT_STEP).stderr).to.match(
        /^codesec-drift: no baseline at .* yet \(a first run\)/,
      );
      expect([...cache.keys()]).to.deep.equal([
        `codesec-drift-baseline-${env.ORG_CONFIG_DIR}-${env.ORG_STACKS}-${runId}-1`,
      ]);
      expect(cacheWarnings).to.deep.equal([]);
      const kept = JSON.parse([...cache.values()][0]) as { total: unknown; project: string };
      expect(kept.project).to.equal("codesec-org-config");
      expect(kept.total).to.deep.equal({ stacks: 2, failed: 0, drifted: 0, newDrift: 0, resolved: 0 });
      expect(health)
        .to.match(/^### health\n\n```text\n/)
        .and.include("deployment 1001 is healthy");
      expect(job.summary)
        .to.equal(drift + health)
        .and.not.match(PROGRESS_LINE);
      expectNoSecretPrinted(job, emulator.apiToken);
    });

    it("drift behind Pulumi's back: exit 2 with the changed fields; the next run shows it as reported before and passes", async () => {
      // The second run is "Re-run jobs" of the first: it saves its own report, under its attempt's key.
      const [first, second] = await withDrift(async () => [await run(), await run(undefined, true)]);
      expect([...cache.keys()].map((key) => key.split("-").slice(-2).join("-"))).to.deep.equal([
        `${runId}-1`,
        `${runId}-2`,
      ]);
      expect(cacheWarnings).to.deep.equal([]);
      const drift = stepNamed(first, DRIFT_STEP);
      expect([drift.outcome, drift.exitCode]).to.deep.equal(["failure", 2]);
      expect(first.conclusion).to.equal("failure");
      expect(stepNamed(first, "Keep this drift report for the next run").outcome).to.equal("success");
      expect(stepNamed(first, "Health report").outcome, "runs after a failed drift step").to.equal("success");
      const lines = drift.summary.split("\n");
      expect(lines.slice(0, 7)).to.deep.equal([
        "### ❌ codesec drift across 2 stack(s): 2 resource(s) newly differ from the platform",
        "",
        "| stack | result |",
        "|---|---|",
        "| prod | ❌ 2 resource(s) differ: 2 new, 0 reported before |",
        "| staging | ✅ no drift |",
        "",
      ]);
      expect(drift.summary).to.include(
        [
          "New drift:",
          "",
          "| resource | field | state | platform |",
          "|---|---|---|---|",
          '| ScmApp "scm-app" | scmName | "acme-legacy" | "renamed-in-the-ui" |',
          '| UserRole "role-501" | role | "ORG_ROLE_ADMIN" | "ORG_ROLE_MEMBER" |',
        ].join("\n"),
      );
      const again = stepNamed(second, DRIFT_STEP);
      expect([again.outcome, again.exitCode, second.conclusion]).to.deep.equal(["success", 0, "success"]);
      expect(again.summary.split("\n").slice(0, 6)).to.deep.equal([
        "### ⚠️ No new drift across 2 stack(s): 2 resource(s) still differ, reported before",
        "",
        "| stack | result |",
        "|---|---|",
        "| prod | ⚠️ 2 resource(s) differ: 0 new, 2 reported before |",
        "| staging | ✅ no drift |",
      ]);
      expect(again.summary).to.include("Reported before (not alerted again):");
      for (const job of [first, second]) {
        expect(job.summary).not.to.match(PROGRESS_LINE);
        expectNoSecretPrinted(job, emulator.apiToken);
      }
    });

    it("a bad token for one stack: that stack fails with the 401, the other is still reported, exit 1", async () => {
      const job = await run(BAD_TOKEN);
      const drift = stepNamed(job, DRIFT_STEP);
      expect([drift.outcome, drift.exitCode]).to.deep.equal(["failure", 1]);
      expect(job.conclusion).to.equal("failure");
      expect(drift.summary.split("\n").slice(0, 6)).to.deep.equal([
        "### ❗ codesec drift check failed for 1 of 2 stack(s)",
        "",
        "| stack | result |",
        "|---|---|",
        drift.summary.split("\n")[4],
        "| staging | ✅ no drift |",
      ]);
      expect(drift.summary.split("\n")[4]).to.match(
        /^\| prod \| ❗ the refresh failed \(\d+ error\(s\)\) \|$/,
      );
      expect(drift.summary).to.include("#### ❗ stack `prod`: the refresh failed");
      expect(drift.stderr).to.include("codesec-drift: the end of the Pulumi CLI's output for stack prod:\n");
      expect(drift.summary).to.match(/401|unauthori[sz]ed/i);
      // The workflow passes the token in CODESEC_TOKEN, which the provider reads itself (always current): no
      // advice to record a rotated token with `pulumi up`, which would not help; the 401's own advice.
      expect(drift.summary, "no token-rotation advice").not.to.include("If the token was rotated");
      expect(drift.summary).to.include("Check the token: it is missing, malformed, expired or revoked.");
      expect(job.summary).not.to.match(PROGRESS_LINE);
      expectNoSecretPrinted(job, BAD_TOKEN);
      expect(
        everythingPrinted(job).includes(otherPlatform.apiToken),
        "the token of the stack's config",
      ).to.equal(false);
    });
  });
});

/**
 * policy/ copied out of this repository as docs/review-and-drift.md tells a user to: its sources, manifest
 * and build config, with pulumi-codesec by the range the examples use instead of `file:..`, installed with
 * the packed package standing in for the registry's.
 */
function copyPolicyPack(destination: string): void {
  const source = path.join(repoRoot, "policy");
  const staging = scratchDir("policy-copy");
  for (const entry of ["src", "PulumiPolicy.yaml", "package.json", "tsconfig.build.json"]) {
    cpSync(path.join(source, entry), path.join(staging, entry), { recursive: true });
  }
  const manifestFile = path.join(staging, "package.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { dependencies: Record<string, string> };
  const example = JSON.parse(readFileSync(path.join(EXAMPLES, "pr-preview/package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  manifest.dependencies["pulumi-codesec"] = example.dependencies["pulumi-codesec"];
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  installProgramCopy(staging, destination);
}
