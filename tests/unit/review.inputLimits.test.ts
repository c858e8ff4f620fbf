/**
 * `codesec-review` and `codesec-drift` on input at its limits: an event log cut in the middle of a line
 * (as a killed run leaves it), a JSON preview cut short, values nested far deeper than the call stack
 * allows, and plans so large that their Markdown would pass GitHub's limit for a comment.
 */
import { expect } from "chai";
import { driftCommand, reviewCommand, type CommandIo } from "../../provider/review/commands";
import { COMMENT_LIMIT } from "../../provider/review/markdownBudget";
import { nestedObjects } from "../support/deepValues";
import { renderGfm, tableRows, textOf } from "../support/gfm";

const TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const urnOf = (name: string) => `urn:pulumi:prod::org::${TYPE}::${name}`;
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;
const POLICY_LOAD = line({ policyLoadEvent: {} });
const SUMMARY = line({ summaryEvent: { result: "succeeded" } });

function create(name: string, inputs: Record<string, unknown>): string {
  return line({
    resourcePreEvent: {
      metadata: { op: "create", urn: urnOf(name), type: TYPE, new: { type: TYPE, inputs } },
    },
  });
}

function run(command: (args: readonly string[], io: CommandIo) => number, args: string[], stdin: string) {
  let stdout = "";
  let stderr = "";
  const code = command(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: () => stdin,
  });
  return { code, stdout, stderr };
}

const headline = (markdown: string) => markdown.split("\n")[2];

describe("review and drift reports: input at its limits", () => {
  it("an event log cut in the middle of its last line did not finish, in both tools", () => {
    const steps = Array.from({ length: 48 }, (_, i) =>
      create(`user-${i}`, { deploymentId: "1001", userId: String(600 + i), role: "ORG_ROLE_MEMBER" }),
    ).join("");
    const cut =
      POLICY_LOAD +
      steps +
      create("last", { deploymentId: "1001", userId: "700", role: "ORG_ROLE_ADMIN" }).slice(0, 60);
    const review = run(reviewCommand, [], cut);
    expect(review.code, review.stderr).to.equal(0);
    expect(headline(review.stdout)).to.equal(
      "❗ The preview did not finish (its event log stops before the end: the run was stopped or killed). " +
        "Until then it planned 48 to create; policies were not fully checked.",
    );
    const read = line({
      resourcePreEvent: {
        metadata: {
          op: "refresh",
          urn: urnOf("lee"),
          type: TYPE,
          old: { type: TYPE, inputs: {}, outputs: {} },
        },
      },
    });
    const drift = run(driftCommand, [], read + read.slice(0, 40));
    expect([drift.code, drift.stdout]).to.deep.equal([
      1,
      "### ❗ codesec drift check failed in stack `prod`\n\n" +
        "- the refresh did not finish: its event log stops before the end (the run was stopped or killed)\n",
    ]);
  });

  it("a line that is not JSON before the last one is no event log: exit 1 naming the line", () => {
    const review = run(reviewCommand, [], POLICY_LOAD + "not json\n" + SUMMARY);
    expect(review.code).to.equal(1);
    expect(review.stderr.split("\n")[0]).to.equal("line 2 of the event log is not JSON");
  });

  it("a JSON preview cut short is reported as such, not as an event log", () => {
    const preview = JSON.stringify(
      {
        steps: [{ op: "create", urn: urnOf("lee"), newState: { type: TYPE, inputs: {} } }],
        changeSummary: {},
      },
      null,
      4,
    );
    const review = run(reviewCommand, [], preview.slice(0, preview.length / 2));
    expect(review.code).to.equal(1);
    expect(review.stderr.split("\n")[0]).to.equal(
      "the JSON preview is cut short (it ends before its closing brace): the run was stopped or killed while " +
        "it wrote it; give its event log alone (--events)",
    );
    expect(review.stderr).not.to.include("event log is not JSON");
  });

  it("values nested 20,000 levels deep are shown cut at the bound, without a stack overflow", () => {
    // Written as text: JSON.stringify itself overflows the stack on such a value.
    const deep = `${'{"a":'.repeat(20_000)}"x"${"}".repeat(20_000)}`;
    const nested = (event: string) => event.replace('"__deep__"', deep);
    const log =
      POLICY_LOAD +
      nested(
        create("deep", { deploymentId: "1001", userId: "505", role: "ORG_ROLE_MEMBER", extra: "__deep__" }),
      ) +
      SUMMARY;
    const review = run(reviewCommand, [], log);
    expect(review.code, review.stderr).to.equal(0);
    expect(headline(review.stdout)).to.equal("1 to create. Policies: ✅ no violation.");
    expect(review.stdout).to.include(
      `extra: ${JSON.stringify(nestedObjects(63, "a")).replace('"x"', '"[nested deeper than 64 levels]"')}`,
    );
    const old = { type: TYPE, inputs: {}, outputs: { role: "ORG_ROLE_MEMBER", extra: "__deep__" } };
    const drift = run(
      driftCommand,
      [],
      nested(line({ resourcePreEvent: { metadata: { op: "refresh", urn: urnOf("me"), type: TYPE, old } } })) +
        nested(
          line({
            resOutputsEvent: {
              metadata: {
                op: "update",
                urn: urnOf("me"),
                type: TYPE,
                old,
                new: { ...old, outputs: { ...old.outputs, role: "ORG_ROLE_ADMIN" } },
              },
            },
          }),
        ).replace('"__deep__"', deep) +
        SUMMARY,
    );
    expect(drift.code, drift.stderr).to.equal(2);
    expect(tableRows(renderGfm(drift.stdout)).map((row) => row.slice(1))).to.deep.equal([
      ["role", "&quot;ORG_ROLE_MEMBER&quot;", "&quot;ORG_ROLE_ADMIN&quot;"],
    ]);
  });

  it("20,000 steps give a comment under GitHub's limit, saying what was left out, the policy violations kept", () => {
    const steps = Array.from({ length: 20_000 }, (_, i) =>
      create(`user-${i}`, { deploymentId: "1001", userId: String(10_000 + i), role: "ORG_ROLE_MEMBER" }),
    ).join("");
    const violation = line({
      policyEvent: {
        policyName: "codesec-admin-count",
        policyPackName: "codesec",
        enforcementLevel: "mandatory",
        message: "description\ndeployment 1001 has no admin",
        resourceUrn: urnOf("user-1"),
      },
    });
    const review = run(reviewCommand, [], POLICY_LOAD + steps + violation + SUMMARY);
    expect(review.code, review.stderr).to.equal(0);
    expect(review.stdout.length).to.be.at.most(COMMENT_LIMIT);
    expect(headline(review.stdout)).to.equal(
      "20000 to create. Policies: ❌ 1 mandatory violation(s): this change cannot be applied as it is.",
    );
    const html = renderGfm(review.stdout);
    expect(html).to.include(
      "<li>❌ mandatory <code>codesec-admin-count</code> (UserRole &quot;user-1&quot;): deployment 1001 has no admin</li>",
    );
    const rows = tableRows(html).length;
    expect(rows).to.be.greaterThan(100);
    expect(review.stdout).to.include(
      `_✂️ ${(20_000 - rows).toLocaleString("en-US")} of 20,000 access changes left out: a comment holds at most 65,536 characters._`,
    );
    expect(review.stdout).to.include(
      "_✂️ All 80,000 lines of the raw diff left out: a comment holds at most 65,536 characters._",
    );
  });
  it("a drift report of 5,000 changed resources stays under the limit too, saying what was left out", () => {
    const app = "pulumi-nodejs:dynamic/codesec:ScmApp";
    const events = Array.from({ length: 5_000 }, (_, i) => {
      const urn = `urn:pulumi:prod::org::${app}::app-${i}`;
      const old = { type: app, inputs: {}, outputs: { scmName: `org-${i}` } };
      return (
        line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: app, old } } }) +
        line({
          resOutputsEvent: {
            metadata: {
              op: "update",
              urn,
              type: app,
              old,
              new: { ...old, outputs: { scmName: `renamed-${i}` } },
            },
          },
        })
      );
    }).join("");
    const drift = run(driftCommand, [], events + SUMMARY);
    expect(drift.code, drift.stderr).to.equal(2);
    expect(drift.stdout.length).to.be.at.most(COMMENT_LIMIT);
    const rows = tableRows(renderGfm(drift.stdout)).length;
    expect(rows).to.be.greaterThan(100);
    expect(drift.stdout).to.include(
      `_✂️ ${(5_000 - rows).toLocaleString("en-US")} of 5,000 drifted fields left out: a comment holds at most 65,536 characters._`,
    );
  });

  it("one raw-diff line longer than a comment is cut, and the lines after it stay", () => {
    const log =
      POLICY_LOAD +
      create("a-long", {
        deploymentId: "1001",
        userId: "501",
        role: "ORG_ROLE_MEMBER",
        note: "n".repeat(70_000),
      }) +
      create("b-after", { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" }) +
      SUMMARY;
    const review = run(reviewCommand, [], log);
    expect(review.code, review.stderr).to.equal(0);
    expect(review.stdout.length).to.be.at.most(COMMENT_LIMIT);
    const diff = textOf(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/.exec(renderGfm(review.stdout))![1]).split(
      "\n",
    );
    expect(diff.filter((text) => !text.startsWith("    note:"))).to.deep.equal([
      '+ UserRole "a-long" (create)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_MEMBER"',
      '    userId: "501"',
      '+ UserRole "b-after" (create)',
      '    deploymentId: "1001"',
      '    role: "ORG_ROLE_MEMBER"',
      '    userId: "502"',
      "",
    ]);
    const note = diff.find((text) => text.startsWith("    note:"))!;
    expect(note).to.match(/^ {4}note: "n+… \(\d+ more characters\)$/);
    expect(note.length).to.be.at.most(1_100);
  });
});
