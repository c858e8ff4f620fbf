/**
 * The pr-preview workflow's comment step, as written, when `codesec-review` cannot read the preview: the
 * pull request's comment (edited on each push) must not keep describing an earlier head. codesec-review
 * (this repository's) replaces it with a note that sends the reader to the job's log, and the step fails.
 * `pulumi` is a stand-in here, GitHub's API the review tests' local one; the whole workflow runs against
 * the real CLI in tests/e2e/exampleWorkflows.test.ts.
 */
import { expect } from "chai";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readWorkflow, runJob } from "../e2e/support/workflowRunner";
import { FakeGitHub } from "../support/fakeGitHub";

const WORKFLOW = path.resolve(__dirname, "../../examples/pr-preview/.github/workflows/pr-preview.yml");
const BIN = path.resolve(__dirname, "../../bin/codesec-review.js");
const STEP = "Reviewer's summary, as a PR comment";
const TOKEN = "ghs_standInTokenOfTheWorkflowRun0123456789";
const MARKER = "<!-- codesec-review stack=organization/codesec-pr-preview/prod -->";

function executable(file: string, script: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, script);
  chmodSync(file, 0o755);
}

describe("pr-preview: the comment step when codesec-review cannot read the preview", () => {
  let root: string;
  let github: FakeGitHub;
  beforeEach(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), "codesec-pr-comment-"));
    github = await FakeGitHub.start(TOKEN);
  });
  afterEach(async () => {
    await github.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("replaces the earlier summary with a note that points to the job's log, and fails the step", async () => {
    const earlier = github.add(
      "github-actions[bot]",
      `${MARKER}\n### codesec: what this change does\n\n1 to create. Policies: ✅ no violation.\n`,
    );
    const workflow = readWorkflow(WORKFLOW);
    const step = workflow.jobs.preview.steps.find((s) => s.name === STEP);
    expect(step, STEP).not.to.equal(undefined);
    const workspace = path.join(root, "ws");
    const env = workflow.env as Record<string, string>;
    executable(
      path.join(workspace, env.PROGRAM_DIR, "node_modules/.bin/codesec-review"),
      `#!/bin/bash\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
    );
    const bin = path.join(root, "bin");
    // What `pulumi stack --show-name --fully-qualify-stack-names` prints for a self-managed backend.
    executable(path.join(bin, "pulumi"), "#!/bin/bash\necho organization/codesec-pr-preview/prod\n");
    const temp = path.join(root, "temp");
    for (const dir of [temp, path.join(root, "home")]) mkdirSync(dir, { recursive: true });
    // A preview cut short, as a killed CLI leaves it.
    writeFileSync(path.join(temp, "preview.json"), '{"steps": [');
    writeFileSync(path.join(temp, "events.jsonl"), "");
    const result = await runJob({ env: workflow.env, jobs: { preview: { steps: [step!] } } }, "preview", {
      workspace,
      runnerTemp: temp,
      home: path.join(root, "home"),
      path: [bin, path.dirname(process.execPath)],
      vars: {},
      secrets: { GITHUB_TOKEN: TOKEN },
      github: {
        repository: "acme/infra",
        api_url: github.apiUrl,
        event: { pull_request: { number: 42 } },
      },
      actions: {},
      expectErrors: [STEP],
    });
    expect(github.comments.map((c) => [c.id, c.body])).to.deep.equal([
      [
        earlier.id,
        `${MARKER}\n### codesec: what this change does\n\n` +
          "❗ The summary could not be written: codesec-review could not read the preview's output (see the job's log). Nothing here describes this push.\n",
      ],
    ]);
    expect([result.steps[0].outcome, result.steps[0].exitCode]).to.deep.equal(["failure", 1]);
    expect(result.steps[0].stderr).to.match(/^the input is empty|^the input is not JSON/m);
    expect(result.steps[0].stderr).not.to.include(TOKEN);
  });
});
