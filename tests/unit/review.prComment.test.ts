/**
 * `codesec-review --post-comment`: one pull-request comment, posted once and then edited, found again
 * by its hidden marker among the workflow account's comments; a failure to post fails the command and
 * never prints the token. Against a local stand-in of GitHub's REST API (tests/support/fakeGitHub.ts).
 */
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { reviewMain, type CommandIo } from "../../provider/review/commands";
import { FakeGitHub } from "../support/fakeGitHub";

const TOKEN = "ghs_S3CRETworkflowtoken0123456789";
const TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;

function log(count: number, role = "ORG_ROLE_MEMBER", project = "org"): string {
  const creates = Array.from({ length: count }, (_, i) =>
    line({
      resourcePreEvent: {
        metadata: {
          op: "create",
          urn: `urn:pulumi:prod::${project}::${TYPE}::user-${i}`,
          new: { type: TYPE, inputs: { deploymentId: "1001", userId: String(600 + i), role } },
        },
      },
    }),
  ).join("");
  return line({ policyLoadEvent: {} }) + creates + line({ summaryEvent: { result: "succeeded" } });
}

async function run(args: string[], stdin: string, env: NodeJS.ProcessEnv) {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => stdin };
  const code = await reviewMain(args, io, env);
  return { code, stdout, stderr };
}

const POST = ["--post-comment", "--stack", "acme/org/prod"];
const MARKER = "<!-- codesec-review stack=acme/org/prod -->";

describe("codesec-review --post-comment: one pull-request comment, kept up to date", () => {
  let github: FakeGitHub;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    github = await FakeGitHub.start(TOKEN);
    dir = mkdtempSync(path.join(os.tmpdir(), "codesec-pr-comment-"));
    const event = path.join(dir, "event.json");
    writeFileSync(event, JSON.stringify({ pull_request: { number: 42 } }));
    env = {
      GITHUB_TOKEN: TOKEN,
      GITHUB_REPOSITORY: "acme/infra",
      GITHUB_API_URL: github.apiUrl,
      GITHUB_EVENT_PATH: event,
    };
  });
  afterEach(async () => {
    await github.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates the comment once, then edits it: other comments with the marker, by other people, stay", async () => {
    const forged = github.add("mallory", `${MARKER}\nReviewed: nothing to see.`);
    github.add("github-actions[bot]", "an unrelated comment");
    const first = await run([...POST], log(1), env);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stderr).to.match(
      /^codesec-review: created the pull request's comment https:\/\/github\.example\//,
    );
    expect(first.stdout.split("\n").slice(0, 4)).to.deep.equal([
      MARKER,
      "### codesec: what this change does to stack `prod`",
      "",
      "1 to create. Policies: ✅ no violation.",
    ]);
    const second = await run([...POST], log(2, "ORG_ROLE_ADMIN"), env);
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stderr).to.match(/^codesec-review: updated the pull request's comment /);
    const ours = github.comments.filter(
      (c) => c.user.login === "github-actions[bot]" && c.body.startsWith(MARKER),
    );
    expect(ours).to.have.length(1);
    expect(ours[0].body).to.equal(second.stdout);
    expect(ours[0].body).to.include("2 to create.");
    expect(forged.body).to.equal(`${MARKER}\nReviewed: nothing to see.`);
    expect(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).to.equal(true);
  });

  it("the marker names organization, project and stack: two projects' stacks of one name keep a comment each", async () => {
    const a = await run(
      ["--post-comment", "--stack", "acme/projA/prod"],
      log(1, "ORG_ROLE_MEMBER", "projA"),
      env,
    );
    const b = await run(
      ["--post-comment", "--stack", "acme/projB/prod"],
      log(2, "ORG_ROLE_MEMBER", "projB"),
      env,
    );
    expect([a.code, b.code], a.stderr + b.stderr).to.deep.equal([0, 0]);
    expect(github.comments.map((c) => c.body.split("\n")[0])).to.deep.equal([
      "<!-- codesec-review stack=acme/projA/prod -->",
      "<!-- codesec-review stack=acme/projB/prod -->",
    ]);
    expect(github.comments[0].body).to.include("1 to create.");
  });

  it("a preview that did not run replaces its stack's summary: no clean verdict left standing", async () => {
    const clean = await run([...POST], log(1), env);
    expect(clean.code, clean.stderr).to.equal(0);
    const notRun = await run([...POST], "{}", env);
    expect(notRun.code, notRun.stderr).to.equal(0);
    expect(github.comments).to.have.length(1);
    expect(github.comments[0].body.split("\n")[0]).to.equal(MARKER);
    expect(github.comments[0].body).to.include("The preview did not run");
    expect(github.comments[0].body).not.to.include("no violation");
  });

  it("input that cannot be read replaces its stack's summary with a note pointing to the log, and fails: exit 1", async () => {
    const clean = await run([...POST], log(1), env);
    expect(clean.code, clean.stderr).to.equal(0);
    const file = path.join(dir, "missing.json");
    for (const [args, stdin, error] of [
      [[...POST], '{"steps": [', "the input is not JSON"],
      [[...POST, file], "", `ENOENT: no such file or directory, open '${file}'`],
    ] as const) {
      const failed = await run([...args], stdin, env);
      expect(failed.code).to.equal(1);
      expect(failed.stderr.split("\n")[0]).to.include(error);
      expect(failed.stderr).to.match(/codesec-review: updated the pull request's comment /);
      expect(github.comments.map((c) => c.body)).to.deep.equal([
        `${MARKER}\n### codesec: what this change does\n\n` +
          "❗ The summary could not be written: codesec-review could not read the preview's output (see the job's log). Nothing here describes this push.\n",
      ]);
    }
  });

  it("a crash once the stack is known replaces its stack's summary with a note, and fails with its stack trace: exit 1", async () => {
    const clean = await run([...POST], log(1), env);
    expect(clean.code, clean.stderr).to.equal(0);
    let stderr = "";
    const io: CommandIo = {
      stdout: () => undefined,
      stderr: (t) => (stderr += t),
      stdin: () => {
        throw new Error("the runner's stdin broke");
      },
    };
    expect(await reviewMain([...POST], io, env)).to.equal(1);
    expect(stderr.split("\n")[0]).to.equal("Error: the runner's stdin broke");
    expect(stderr).to.match(/codesec-review: updated the pull request's comment /);
    expect(github.comments.map((c) => c.body)).to.deep.equal([
      `${MARKER}\n### codesec: what this change does\n\n` +
        "❗ The summary could not be written: codesec-review failed (see the job's log). Nothing here describes this push.\n",
    ]);
  });

  it("a JSON preview cut short beside a complete event log is summarised from the event log", async () => {
    const events = path.join(dir, "events.jsonl");
    writeFileSync(events, log(2));
    const preview = path.join(dir, "preview.json");
    writeFileSync(preview, '{"steps": [');
    const posted = await run([...POST, preview, "--events", events], "", env);
    expect(posted.code, posted.stderr).to.equal(0);
    expect(github.comments).to.have.length(1);
    expect(github.comments[0].body).to.include("2 to create. Policies: ✅ no violation.");
  });

  it("without a stack known as organization/project/stack, or of another preview, nothing is posted: exit 1", async () => {
    const cases: [string[], string][] = [
      [
        ["--post-comment"],
        "--post-comment needs the stack as --stack organization/project/stack (what `pulumi stack --show-name --fully-qualify-stack-names` prints): the comment is found again by it",
      ],
      [
        ["--post-comment", "--stack", "prod"],
        '--stack must be organization/project/stack (letters, digits, "-", "_" and "."), got "prod"',
      ],
      [
        ["--post-comment", "--stack", "acme/org/prod -->"],
        '--stack must be organization/project/stack (letters, digits, "-", "_" and "."), got "acme/org/prod -->"',
      ],
      [
        ["--post-comment", "--stack", "acme/other/prod"],
        "--stack acme/other/prod: the preview is of another project or stack; give the stack that was previewed",
      ],
      [
        ["--post-comment", "--stack", "acme/org/dev"],
        "--stack acme/org/dev: the preview is of another project or stack; give the stack that was previewed",
      ],
    ];
    for (const [args, message] of cases) {
      const posted = await run(args, log(1), env);
      expect([posted.code, posted.stderr.split("\n")[0]]).to.deep.equal([1, message]);
      expect(posted.stdout).to.equal("");
    }
    expect(github.requests).to.have.length(0);
  });

  it("finds its comment on a later page of the list", async () => {
    github.pageSize = 2;
    for (let i = 0; i < 5; i++) github.add("someone", `comment ${i}`);
    const mine = github.add("github-actions[bot]", `${MARKER}\nold summary`);
    github.add("someone", "after");
    const posted = await run([...POST], log(1), env);
    expect(posted.code, posted.stderr).to.equal(0);
    expect(mine.body).to.equal(posted.stdout);
    expect(github.comments).to.have.length(7);
    expect(github.requests.filter((r) => r.method === "GET")).to.have.length(4);
  });

  it("a body over GitHub's limit is never sent: the comment holds at most 65,536 characters, marker included", async () => {
    const posted = await run([...POST], log(2_000), env);
    expect(posted.code, posted.stderr).to.equal(0);
    expect(github.comments[0].body.length).to.be.at.most(65_536);
    expect(github.comments[0].body).to.include(
      "access changes left out: a comment holds at most 65,536 characters.",
    );
  });

  for (const [operation, status, message, advice] of [
    ["list", 404, "Not Found", "no such repository or pull request for this token"],
    [
      "create",
      403,
      "Resource not accessible by integration",
      "the token may not write to pull requests: give the job `permissions: pull-requests: write`",
    ],
    ["update", 422, "Validation Failed", "GitHub refused the comment's body"],
  ] as const) {
    it(`GitHub answering ${status} to ${operation}: exit 1, saying what failed and what to do, no token printed`, async () => {
      if (operation === "update") github.add("github-actions[bot]", `${MARKER}\nold`);
      github.failures.set(operation, { status, message: `${message} (token ${TOKEN})` });
      const posted = await run([...POST], log(1), env);
      expect(posted.code).to.equal(1);
      expect(posted.stderr, posted.stderr).to.include(
        `HTTP ${status} (GitHub: ${message} (token [token])): ${advice}`,
      );
      expect(posted.stderr + posted.stdout).not.to.include(TOKEN);
    });
  }

  it("a bad token (401), an API that cannot be reached, or missing settings: exit 1", async () => {
    const bad = await run([...POST], log(1), { ...env, GITHUB_TOKEN: "ghs_wrong" });
    expect([bad.code, bad.stderr]).to.deep.equal([
      1,
      "codesec-review: could not post the summary: list the pull request's comments: HTTP 401 (GitHub: Bad credentials): the token is missing, expired or revoked\n",
    ]);
    await github.close();
    const down = await run([...POST], log(1), env);
    expect(down.code).to.equal(1);
    expect(down.stderr).to.match(
      /^codesec-review: could not post the summary: list the pull request's comments: no answer from http:\/\/127\.0\.0\.1:\d+ \(/,
    );
    github = await FakeGitHub.start(TOKEN);
    const noToken = await run([...POST], log(1), { ...env, GITHUB_TOKEN: "", GH_TOKEN: "" });
    expect([noToken.code, noToken.stderr.split("\n")[0]]).to.deep.equal([
      1,
      "--post-comment needs the workflow's token in GITHUB_TOKEN (or GH_TOKEN)",
    ]);
    const noPr = await run([...POST], log(1), { ...env, GITHUB_EVENT_PATH: "" });
    expect(noPr.stderr.split("\n")[0]).to.equal(
      "--post-comment needs the pull request's number (--pr N, or a pull_request event), got none",
    );
    const explicit = await run([...POST, "--pr", "42"], log(1), {
      ...env,
      GITHUB_EVENT_PATH: "",
      GITHUB_API_URL: github.apiUrl,
    });
    expect(explicit.code, explicit.stderr).to.equal(0);
  });

  it("a redirect is not followed with the token: exit 1, saying what to check", async () => {
    github.answers.set("list", {
      status: 302,
      body: "",
      headers: { location: `${github.apiUrl}/elsewhere` },
    });
    const posted = await run([...POST], log(1), env);
    expect([posted.code, posted.stderr]).to.deep.equal([
      1,
      "codesec-review: could not post the summary: list the pull request's comments: HTTP 302, a redirect, not followed with the token: check GITHUB_API_URL\n",
    ]);
    expect(github.requests).to.have.length(1);
  });

  it("an answer that is not JSON is an error that prints none of it", async () => {
    github.answers.set("list", { status: 200, body: "<html>internal page ghs_other</html>" });
    const posted = await run([...POST], log(1), env);
    expect([posted.code, posted.stderr]).to.deep.equal([
      1,
      "codesec-review: could not post the summary: list the pull request's comments: HTTP 200, but the answer is not JSON: check that GITHUB_API_URL is GitHub's REST API\n",
    ]);
  });

  it("an error body cut to its first 200 characters never leaves a piece of the token, nor a line of its own", async () => {
    for (const at of [150, 190, 195, 199]) {
      github.answers.set("list", { status: 500, body: `${"x".repeat(at)}${TOKEN} after\n::error::forged` });
      const posted = await run([...POST], log(1), env);
      expect(posted.code).to.equal(1);
      expect(posted.stderr, String(at)).not.to.include(TOKEN.slice(0, 4));
      expect(posted.stderr.trimEnd().split("\n")).to.have.length(1);
    }
  });

  it("a link to another host is not followed with the token", async () => {
    github.pageSize = 1;
    github.add("someone", "one");
    github.add("someone", "two");
    // The API is configured as localhost; its Link header names 127.0.0.1: another origin.
    const api = github.apiUrl.replace("127.0.0.1", "localhost");
    const posted = await run([...POST], log(1), { ...env, GITHUB_API_URL: api });
    expect(posted.code).to.equal(1);
    expect(posted.stderr).to.include(
      `list the pull request's comments: GitHub pointed to ${github.apiUrl}, not the API at ${api}`,
    );
    expect(github.requests).to.have.length(1);
  });
});
