/**
 * The pr-preview workflow's comment step, as written, when `codesec-review` fails: the pull request's
 * comment (edited on each push) must not keep describing an earlier head. The step posts a short comment
 * that sends the reader to the job's log, and fails. `codesec-review` and `gh` are stand-ins here; the
 * whole workflow runs against the real CLI in tests/e2e/exampleWorkflows.test.ts.
 */
import { expect } from "chai";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readWorkflow, runJob } from "../e2e/support/workflowRunner";

const WORKFLOW = path.resolve(__dirname, "../../examples/pr-preview/.github/workflows/pr-preview.yml");
const STEP = "Reviewer's summary, as a PR comment";

function executable(file: string, script: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, script);
  chmodSync(file, 0o755);
}

describe("pr-preview: the comment step when codesec-review fails", () => {
  let root: string;
  before(() => (root = mkdtempSync(path.join(os.tmpdir(), "codesec-pr-comment-"))));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("posts a short comment that points to the job's log, and fails the step", async () => {
    const workflow = readWorkflow(WORKFLOW);
    const job = workflow.jobs.preview;
    const step = job.steps.find((s) => s.name === STEP);
    expect(step, STEP).not.to.equal(undefined);
    const workspace = path.join(root, "ws");
    const env = workflow.env as Record<string, string>;
    executable(
      path.join(workspace, env.PROGRAM_DIR, "node_modules/.bin/codesec-review"),
      "#!/bin/bash\necho '### half a summary'\necho 'codesec-review: cannot read preview.json' >&2\nexit 1\n",
    );
    const bodyFile = path.join(root, "comment.md");
    const bin = path.join(root, "bin");
    // gh pr comment ... --body-file F: the body is recorded.
    executable(
      path.join(bin, "gh"),
      `#!/bin/bash\nwhile [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" ${JSON.stringify(bodyFile)}; shift; done\n`,
    );
    for (const dir of ["temp", "home"]) mkdirSync(path.join(root, dir), { recursive: true });
    const result = await runJob({ env: workflow.env, jobs: { preview: { steps: [step!] } } }, "preview", {
      workspace,
      runnerTemp: path.join(root, "temp"),
      home: path.join(root, "home"),
      path: [bin],
      vars: {},
      secrets: { GITHUB_TOKEN: "ghs_x" },
      github: { repository: "acme/infra", event: { pull_request: { number: 42 } } },
      actions: {},
    });
    const comment =
      "### codesec: what this change does\n\n" +
      "❗ The summary could not be written (codesec-review failed): see the job's log.\n";
    expect(readFileSync(bodyFile, "utf8")).to.equal(comment);
    expect(result.summary).to.equal(comment);
    expect([result.steps[0].outcome, result.steps[0].exitCode]).to.deep.equal(["failure", 1]);
    expect(result.steps[0].stderr).to.include("codesec-review: cannot read preview.json");
  });
});
