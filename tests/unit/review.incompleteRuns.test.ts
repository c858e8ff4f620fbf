/**
 * `codesec-review` and `codesec-drift` on runs that started and did not end well: a preview that failed
 * (a provider error, not a policy), a run killed before its end (an event log without its summary), and
 * a JSON preview given with such a log. The headline must say so and claim no policy verdict: it read
 * "No change to codesec resources. Policies: ✅ no violation." for a preview that failed, and "did not
 * run" for one that ran part way. Errors that the steps of one failed lookup share read once.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROTATION_ADVICE } from "../../provider/resources/staleCredentials";
import { driftCommand, reviewCommand, type CommandIo } from "../../provider/review/commands";
import { markdownText } from "../../provider/review/markdownText";

const TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const URN = `urn:pulumi:prod::org::${TYPE}::lee`;
const INPUTS = { deploymentId: "1001", userId: "505", role: "ORG_ROLE_MEMBER" };
const ERROR = "codesec:UserRole lee: HTTP 500 INTERNAL from the platform";

const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;
const POLICY_LOAD = line({ policyLoadEvent: {} });
const CREATE = line({
  resourcePreEvent: { metadata: { op: "create", urn: URN, type: TYPE, new: { type: TYPE, inputs: INPUTS } } },
});
const error = (message: string) => line({ diagnosticEvent: { severity: "error", message, urn: URN } });
const summary = (result: string) => line({ summaryEvent: { result, resourceChanges: {} } });
const MANDATORY = line({
  policyEvent: {
    policyName: "codesec-user-declared-twice",
    policyPackName: "codesec",
    enforcementLevel: "mandatory",
    message: "description\nuser 505 is declared 2 times",
    resourceUrn: URN,
  },
});
const REFRESH_READ = line({
  resourcePreEvent: {
    metadata: { op: "refresh", urn: URN, type: TYPE, old: { type: TYPE, inputs: INPUTS, outputs: INPUTS } },
  },
});
const PREVIEW_JSON = `${JSON.stringify({
  steps: [{ op: "create", urn: URN, newState: { type: TYPE, inputs: INPUTS } }],
  changeSummary: { create: 1 },
})}\n`;

function run(
  command: (args: readonly string[], io: CommandIo) => number,
  args: string[],
  stdin = "",
): { code: number; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const code = command(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: () => stdin,
  });
  return { code, stdout, stderr };
}

const headline = (markdown: string) => markdown.split("\n")[2];

describe("review and drift reports of a run that failed or did not finish", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(os.tmpdir(), "codesec-review-incomplete-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  }

  it("a preview that failed on an error: the headline says so, and that policies were not fully checked", () => {
    const review = run(
      reviewCommand,
      [],
      POLICY_LOAD + CREATE + error(ERROR) + error(ERROR) + summary("failed"),
    );
    expect(review.code).to.equal(0);
    expect(headline(review.stdout)).to.equal(
      "❗ The preview failed (errors below). Until then it planned 1 to create; policies were not fully checked.",
    );
    expect(review.stdout).not.to.include("no violation");
    expect(
      review.stdout.split("\n").filter((l) => l.includes(ERROR)),
      "the shared error, once",
    ).to.deep.equal([`- ${ERROR}`]);
    // The same from a JSON preview carrying the error.
    const json = JSON.stringify({
      diagnostics: [{ severity: "error", message: `error: ${ERROR}` }],
      steps: [],
    });
    expect(headline(run(reviewCommand, [], json).stdout)).to.equal(
      "❗ The preview failed (errors below). Until then it planned no change to codesec resources; policies were not fully checked.",
    );
  });

  it("a preview that failed without an error line: the headline sends the reader to the job's log", () => {
    const review = run(reviewCommand, [], POLICY_LOAD + summary("failed"));
    expect(headline(review.stdout)).to.equal(
      "❗ The preview failed (its error is in the job's log). Until then it planned no change to codesec resources; policies were not fully checked.",
    );
  });

  it("a preview that failed on a mandatory violation keeps the policy verdict", () => {
    const review = run(reviewCommand, [], POLICY_LOAD + CREATE + MANDATORY + summary("failed"));
    expect(headline(review.stdout)).to.equal(
      "1 to create. Policies: ❌ 1 mandatory violation(s): this change cannot be applied as it is.",
    );
  });

  it("an event log with steps and no summary (a killed run) did not finish; it did run", () => {
    const review = run(reviewCommand, [], POLICY_LOAD + CREATE);
    expect(headline(review.stdout)).to.equal(
      "❗ The preview did not finish (its event log stops before the end: the run was stopped or killed). Until then it planned 1 to create; policies were not fully checked.",
    );
    expect(review.stdout).not.to.include("did not run");
  });

  it("codesec-review preview.json --events events.jsonl: a good preview with a log cut short did not finish", () => {
    const preview = file("preview.json", PREVIEW_JSON);
    for (const log of [POLICY_LOAD, POLICY_LOAD + CREATE]) {
      const review = run(reviewCommand, [preview, "--events", file("events.jsonl", log)]);
      expect(review.code, review.stderr).to.equal(0);
      expect(headline(review.stdout), log).to.equal(
        "❗ The preview did not finish (its event log stops before the end: the run was stopped or killed). Until then it planned 1 to create; policies were not fully checked.",
      );
    }
    // With its summary, the same log gives the verdict; the log's failure is the preview's.
    const whole = run(reviewCommand, [
      preview,
      "--events",
      file("events.jsonl", POLICY_LOAD + CREATE + summary("succeeded")),
    ]);
    expect(headline(whole.stdout)).to.equal("1 to create. Policies: ✅ no violation.");
    const failed = run(reviewCommand, [
      preview,
      "--events",
      file("events.jsonl", POLICY_LOAD + CREATE + summary("failed")),
    ]);
    expect(headline(failed.stdout)).to.equal(
      "❗ The preview failed (its error is in the job's log). Until then it planned 1 to create; policies were not fully checked.",
    );
  });

  it("codesec-drift: a refresh killed part way is an error (exit 1), and a shared error reads once", () => {
    const read = REFRESH_READ;
    const killed = run(driftCommand, [], read);
    expect([killed.code, killed.stdout]).to.deep.equal([
      1,
      "### ❗ codesec drift check failed in stack `prod`\n\n" +
        "- the refresh did not finish: its event log stops before the end (the run was stopped or killed)\n",
    ]);
    const failed = run(driftCommand, [], read + error(ERROR) + error(ERROR) + summary("failed"));
    expect([failed.code, failed.stdout]).to.deep.equal([
      1,
      `### ❗ codesec drift check failed in stack \`prod\`\n\n- ${ERROR}\n`,
    ]);
    // Two resources' 401s, each with the token-rotation advice: the advice once, after the errors.
    const advised = (name: string) => `codesec:${name}: HTTP 401 UNAUTHENTICATED ${ROTATION_ADVICE}`;
    const unauthorized = run(
      driftCommand,
      [],
      read +
        error(advised("UserRole role-501")) +
        error(advised("ScmApp scm-app")) +
        error(advised("ScmApp scm-app")) +
        summary("failed"),
    );
    expect([unauthorized.code, unauthorized.stdout]).to.deep.equal([
      1,
      "### ❗ codesec drift check failed in stack `prod`\n\n" +
        "- codesec:UserRole role-501: HTTP 401 UNAUTHENTICATED\n" +
        "- codesec:ScmApp scm-app: HTTP 401 UNAUTHENTICATED\n" +
        `- ${markdownText(ROTATION_ADVICE, 1000)}\n`,
    ]);
    // Explicit Providers' 401s: each Provider's advice (its inputs, not stack config) once, after the errors.
    const inProvider = (provider: string) =>
      ROTATION_ADVICE.replace(
        "in stack config:",
        `in provider "${provider}" (codesec.Provider resource inputs):`,
      );
    const providers = run(
      driftCommand,
      [],
      read +
        error(`codesec:UserRole role-501: HTTP 401 UNAUTHENTICATED ${inProvider("org2")}`) +
        error(`codesec:UserRole role-502: HTTP 401 UNAUTHENTICATED ${inProvider("org2")}`) +
        error(`codesec:ScmApp scm-app: HTTP 401 UNAUTHENTICATED ${inProvider("org:3")}`) +
        summary("failed"),
    );
    expect([providers.code, providers.stdout]).to.deep.equal([
      1,
      "### ❗ codesec drift check failed in stack `prod`\n\n" +
        "- codesec:UserRole role-501: HTTP 401 UNAUTHENTICATED\n" +
        "- codesec:UserRole role-502: HTTP 401 UNAUTHENTICATED\n" +
        "- codesec:ScmApp scm-app: HTTP 401 UNAUTHENTICATED\n" +
        `- ${markdownText(inProvider("org2"), 1000)}\n` +
        `- ${markdownText(inProvider("org:3"), 1000)}\n`,
    ]);
  });

  it("codesec-drift: the platform's own message that reads like the rotation advice stays in its error line", () => {
    // A 401's text quotes up to 300 characters of the platform's message: only advice in a label the
    // provider writes (stack config, an explicit Provider's inputs) is advice; the rest is the error's.
    const platform =
      "getCurrentUser (GET /api/auth/users/current) failed: HTTP 401 UNAUTHENTICATED: token revoked. If the token was " +
      "rotated in Vault, sync it: see the runbook (request id r-1). Check the token: it is missing, " +
      "malformed, expired or revoked.";
    const roleError = `codesec:UserRole role-501: ${platform}`;
    const appError = `codesec:ScmApp scm-app: ${platform}`;
    const report = run(
      driftCommand,
      [],
      REFRESH_READ +
        error(`${roleError} ${ROTATION_ADVICE}`) +
        error(`${appError} ${ROTATION_ADVICE}`) +
        summary("failed"),
    );
    expect([report.code, report.stdout]).to.deep.equal([
      1,
      "### ❗ codesec drift check failed in stack `prod`\n\n" +
        `- ${roleError}\n` +
        `- ${appError}\n` +
        `- ${markdownText(ROTATION_ADVICE, 1000)}\n`,
    ]);
    // The same message with no advice after it (an environment token's 401): nothing is advice.
    const unadvised = run(driftCommand, [], REFRESH_READ + error(roleError) + summary("failed"));
    expect([unadvised.code, unadvised.stdout]).to.deep.equal([
      1,
      `### ❗ codesec drift check failed in stack \`prod\`\n\n- ${roleError}\n`,
    ]);
  });
});
