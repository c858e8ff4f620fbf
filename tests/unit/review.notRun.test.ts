/**
 * `codesec-review` and `codesec-drift` on the output of a run that stopped before the engine started
 * (here: a policy pack that cannot be loaded). The CLI then writes `{}` for `--json` and an event log
 * without a summary event, and its error only to its own stderr. A report must not read that as a clean
 * run: the PR comment said "No change ... ✅ no violation" and the drift check "No drift" (exit 0).
 */
import { expect } from "chai";
import { driftCommand, reviewCommand, type CommandIo } from "../../provider/review/commands";

// What pulumi 3.259 wrote for `pulumi preview --json --event-log F --policy-pack <missing folder>`.
const EMPTY_PREVIEW = "{}\n";
const STOPPED_LOG =
  '{"sequence":0,"timestamp":1795651155,"policyLoadEvent":{}}\n{"sequence":1,"timestamp":1795651155,"cancelEvent":{}}\n';

function run(
  command: (args: readonly string[], io: CommandIo) => number,
  args: string[],
  files: Record<string, string>,
): { code: number; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: () => files["-"] ?? "",
  };
  const code = command(args, io);
  return { code, stdout, stderr };
}

describe("review and drift reports of a run that did not start", () => {
  it("codesec-review says the preview did not run, and claims no policy verdict", () => {
    for (const input of [EMPTY_PREVIEW, STOPPED_LOG]) {
      const review = run(reviewCommand, [], { "-": input });
      expect(review.code).to.equal(0);
      expect(review.stdout).to.equal(
        "### codesec: what this change does\n\n" +
          "❗ The preview did not run: the Pulumi CLI wrote no plan (its error is in the job's log). Nothing was checked, policies included.\n",
      );
    }
  });

  it("codesec-review claims no policy verdict for a preview that ran without a policy pack", () => {
    const type = "pulumi-nodejs:dynamic/codesec:UserRole";
    const create = JSON.stringify({
      sequence: 1,
      resourcePreEvent: {
        metadata: {
          op: "create",
          urn: `urn:pulumi:prod::org::${type}::lee`,
          new: { type, inputs: { deploymentId: "1001", userId: "505", role: "ORG_ROLE_ADMIN" } },
        },
      },
    });
    const summary = JSON.stringify({ sequence: 2, summaryEvent: { result: "succeeded" } });
    const policyLoad = JSON.stringify({ sequence: 0, policyLoadEvent: {} });
    const headline = (log: string) => run(reviewCommand, [], { "-": log }).stdout.split("\n")[2];
    expect(headline(`${create}\n${summary}\n`)).to.equal(
      "1 to create. Policies: not checked: no policy pack ran.",
    );
    expect(headline(`${policyLoad}\n${create}\n${summary}\n`)).to.equal(
      "1 to create. Policies: ✅ no violation.",
    );
    // A run without a pack that did not finish says both.
    expect(headline(`${create}\n`)).to.equal(
      "❗ The preview did not finish (its event log stops before the end: the run was stopped or killed). " +
        "Until then it planned 1 to create; no policy pack ran.",
    );
  });

  it("codesec-drift reports an error (exit 1), not an absence of drift", () => {
    const markdown = run(driftCommand, [], { "-": STOPPED_LOG });
    expect(markdown.code).to.equal(1);
    expect(markdown.stdout).to.equal(
      "### ❗ codesec drift check failed\n\n" +
        "- the refresh did not run: the Pulumi CLI wrote no result (its error is in the CLI's own output)\n",
    );
    const json = run(driftCommand, ["--format", "json"], { "-": STOPPED_LOG });
    expect(json.code).to.equal(1);
    expect((JSON.parse(json.stdout) as { exitCode: number }).exitCode).to.equal(1);
  });
});
