/**
 * The example workflows' runner (tests/e2e/support/workflowRunner.ts) on small workflows: what it refuses
 * to run (keys it does not implement, `${{ }}` in a script, `npm exec` that could fetch a registry
 * package), and how it ends a step's processes (at the step's end, and when its time is up).
 */
import { expect } from "chai";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  readWorkflow,
  runJob,
  workflowProblems,
  type RunnerOptions,
  type Workflow,
} from "../e2e/support/workflowRunner";

const EXAMPLES = path.resolve(__dirname, "../../examples");
const EXAMPLE_JOBS = [
  ["pr-preview/.github/workflows/pr-preview.yml", "preview"],
  ["drift-check/.github/workflows/drift-check.yml", "drift-check"],
] as const;

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function makeTempDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `codesec-${name}-`));
  made.push(dir);
  return dir;
}

function options(root: string): RunnerOptions {
  for (const dir of ["ws", "temp", "home"]) mkdirSync(path.join(root, dir), { recursive: true });
  return {
    workspace: path.join(root, "ws"),
    runnerTemp: path.join(root, "temp"),
    home: path.join(root, "home"),
    path: [],
    vars: {},
    secrets: {},
    github: {},
    actions: {},
  };
}

function oneStep(step: Record<string, unknown>, job: Record<string, unknown> = {}): Workflow {
  return { jobs: { job: { ...job, steps: [step] } } };
}

/** Whether process `pid` is gone (or a zombie: ended, waiting to be reaped), waiting up to a second. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
    if (stat === "" || /^\d+ \(.*\) Z/.test(stat)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe("the example workflows' runner", () => {
  it("finds nothing to refuse in the example workflows", () => {
    for (const [file, job] of EXAMPLE_JOBS) {
      expect(workflowProblems(readWorkflow(path.join(EXAMPLES, file)), job), file).to.deep.equal([]);
    }
  });

  it("the example workflows give secrets only to the steps that run pulumi, gh or codesec-drift (which runs pulumi), never to npm install", () => {
    const uses = (env: unknown) => JSON.stringify(env ?? {}).includes("secrets.");
    for (const [file, jobName] of EXAMPLE_JOBS) {
      const workflow = readWorkflow(path.join(EXAMPLES, file));
      const job = workflow.jobs[jobName];
      expect(uses(workflow.env) || uses(job.env), `${file}: secrets in workflow or job env`).to.equal(false);
      const withSecrets = job.steps.filter((step) => uses(step.env));
      expect(withSecrets.length, file).to.be.greaterThan(0);
      for (const step of withSecrets) {
        expect(step.run, `${file}: ${step.name}`).to.match(/\b(pulumi|gh|codesec-drift) /);
        expect(step.run, `${file}: ${step.name}`).not.to.match(/\bnpm (install|ci)\b/);
      }
    }
  });

  it("refuses npm exec and npx without --no, before any step runs", async () => {
    for (const script of [
      'npm exec -- codesec-review "$F"',
      'npm exec --prefix "$D" -- codesec-review',
      "echo start\nx=$(npx codesec-drift log)",
      "true && npx --yes codesec-drift log",
      "npm exec -- tool --no",
      "if ! npx tool; then exit 1; fi",
      "out=`npx tool`",
    ]) {
      expect(workflowProblems(oneStep({ run: script }), "job"), script)
        .to.have.length(1)
        .and.to.match(/without --no: npm would fetch and run a registry package/);
    }
    for (const script of ['npm exec --no --prefix "$D" -- codesec-review', "npx --no codesec-drift log"]) {
      expect(workflowProblems(oneStep({ run: script }), "job"), script).to.deep.equal([]);
    }
    const root = makeTempDir("runner-checks");
    const marker = path.join(root, "ran");
    const workflow = { jobs: { job: { steps: [{ run: `touch ${marker}` }, { run: "npx tool" }] } } };
    let thrown: unknown;
    try {
      await runJob(workflow, "job", options(root));
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown)).to.match(/npx tool/);
    expect(existsSync(marker), "no step ran").to.equal(false);
  });

  it("refuses ${{ }} in a run script and keys it does not implement", () => {
    expect(workflowProblems(oneStep({ run: "echo ${{ github.sha }}" }), "job")).to.deep.equal([
      "jobs.job.steps[0] (unnamed): ${{ }} in run: GitHub substitutes it into the script's text (pass it through env: instead)",
    ]);
    expect(
      workflowProblems(
        oneStep({ run: "true", "continue-on-error": true, timeout: 3 }, { "runs-on": "x", needs: "a" }),
        "job",
      ),
    ).to.deep.equal([
      "jobs.job.needs is not supported by this runner",
      "jobs.job.steps[0] (unnamed).continue-on-error is not supported by this runner",
      "jobs.job.steps[0] (unnamed).timeout is not supported by this runner",
    ]);
    expect(
      workflowProblems(
        { on: "push", outputs: {}, jobs: { job: { steps: [] } } } as unknown as Workflow,
        "job",
      ),
    ).to.deep.equal(["workflow.outputs is not supported by this runner"]);
  });

  it("ends what a step left running when the step ends", async () => {
    const root = makeTempDir("runner-leftover");
    const pidFile = path.join(root, "pid");
    const job = await runJob(
      oneStep({ run: `(sleep 60 >/dev/null 2>&1 & echo $! > ${pidFile})` }),
      "job",
      options(root),
    );
    expect(job.conclusion).to.equal("success");
    expect(await gone(Number(readFileSync(pidFile, "utf8"))), "the background sleep was ended").to.equal(
      true,
    );
  });

  it("fails a step whose timeout-minutes ran out, ending its processes, and runs the next ones", async () => {
    const root = makeTempDir("runner-timeout");
    const pidFile = path.join(root, "pid");
    const started = Date.now();
    const job = await runJob(
      {
        jobs: {
          job: {
            steps: [
              { name: "slow", run: `sleep 60 & echo $! > ${pidFile}; wait`, "timeout-minutes": 0.05 },
              { name: "after", if: "${{ always() }}", run: "echo after" },
            ],
          },
        },
      },
      "job",
      options(root),
    );
    expect(Date.now() - started).to.be.below(10_000);
    expect(job.steps.map((s) => [s.name, s.outcome, s.exitCode, s.timedOut])).to.deep.equal([
      ["slow", "failure", null, true],
      ["after", "success", 0, undefined],
    ]);
    expect(job.conclusion).to.equal("failure");
    expect(await gone(Number(readFileSync(pidFile, "utf8")))).to.equal(true);
  });

  it("throws when the test's own step limit or the job's timeout-minutes cuts the job short", async () => {
    for (const [workflow, limit, message] of [
      [oneStep({ run: "sleep 60" }), 300, /killed after the test's limit of 300 ms/],
      [
        oneStep({ run: "sleep 60" }, { "timeout-minutes": 0.005 }),
        undefined,
        /killed after the job's timeout-minutes/,
      ],
    ] as const) {
      const root = makeTempDir("runner-limit");
      let thrown: unknown;
      try {
        await runJob(workflow, "job", { ...options(root), stepTimeoutMs: limit });
      } catch (error) {
        thrown = error;
      }
      expect(String(thrown)).to.match(message);
    }
  });

  it("throws when a step that exits 0 shows an error the test did not name, and runs it when named", async () => {
    const workflow = {
      jobs: {
        job: {
          steps: [
            { name: "records the preview's failure", run: "echo 'error: preview failed' >&2; exit 0" },
            { name: "fails", run: "echo 'error: preview failed' >&2; exit 1" },
          ],
        },
      },
    };
    let thrown: unknown;
    try {
      await runJob(workflow, "job", options(makeTempDir("runner-errors")));
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown))
      .to.include('`step "records the preview\'s failure"` exited 0')
      .and.include("error: preview failed");
    const job = await runJob(workflow, "job", {
      ...options(makeTempDir("runner-errors-expected")),
      expectErrors: ["records the preview's failure"],
    });
    expect(job.steps.map((s) => [s.name, s.outcome])).to.deep.equal([
      ["records the preview's failure", "success"],
      ["fails", "failure"],
    ]);
  });
});
