/**
 * What codesec-review and codesec-drift print on stdout reaches a GitHub Actions log, where the runner
 * runs `::command::` at the start of a line (after spaces) and `##[command]` anywhere in one. Text from a
 * program, a state or the platform must start neither: every report, in every format, is checked line by
 * line, and still reads (or parses) as the same text.
 */
import { expect } from "chai";
import { driftCommand, reviewCommand, type CommandIo } from "../../provider/review/commands";
import { renderGfm, textOf } from "../support/gfm";

const TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const APP_TYPE = "pulumi-nodejs:dynamic/codesec:ScmApp";
const urnOf = (type: string, name: string) => `urn:pulumi:prod::org::${type}::${name}`;
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;

const NAME = "x ##[error title=P]Policies: ✅ no violation";
const FIELD = "::notice title=forged::hello";
const MESSAGE = "fine\n  ::error title=forged::fake\n##[warning]fake";

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

/** The lines the runner would take as a command. */
const commandLines = (out: string) =>
  out.split(/\r?\n/).filter((text) => /^\s*::/.test(text) || text.includes("##["));

const REVIEW_LOG =
  line({ policyLoadEvent: {} }) +
  line({
    resourcePreEvent: {
      metadata: {
        op: "create",
        urn: urnOf(TYPE, NAME),
        type: TYPE,
        new: {
          type: TYPE,
          inputs: {
            deploymentId: "1001",
            userId: NAME,
            role: "ORG_ROLE_MEMBER",
            [FIELD]: NAME,
            [`  ${FIELD}`]: "v",
          },
        },
      },
    },
  }) +
  line({
    policyEvent: {
      policyName: `p ${NAME}`,
      policyPackName: "codesec",
      enforcementLevel: "mandatory",
      message: `description\n${MESSAGE}`,
      resourceUrn: urnOf(TYPE, NAME),
    },
  }) +
  line({ diagnosticEvent: { severity: "error", message: MESSAGE } }) +
  line({ summaryEvent: { result: "failed" } });

describe("review and drift output: no line the Actions runner takes as a workflow command", () => {
  it("codesec-review's Markdown: no line starts a command, and the text reads as it was", () => {
    const review = run(reviewCommand, [], REVIEW_LOG);
    expect(review.code, review.stderr).to.equal(0);
    expect(commandLines(review.stdout)).to.deep.equal([]);
    const text = textOf(renderGfm(review.stdout)).replace(/\u200b/g, "");
    expect(text).to.include(`UserRole "${NAME}"`);
    expect(text).to.include(`${FIELD}: ${JSON.stringify(NAME)}`);
  });

  it("codesec-review's SARIF: no line starts a command, and it parses to the same text", () => {
    const sarif = run(reviewCommand, ["--format", "sarif"], REVIEW_LOG);
    expect(sarif.code, sarif.stderr).to.equal(0);
    expect(commandLines(sarif.stdout)).to.deep.equal([]);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[] }[] };
    expect(log.runs[0].results[0].ruleId).to.equal(`p ${NAME}`);
  });

  it("codesec-review's annotations: each line is one command of the report's own", () => {
    const annotations = run(reviewCommand, ["--format", "annotations"], REVIEW_LOG);
    expect(annotations.code, annotations.stderr).to.equal(0);
    const lines = annotations.stdout.trimEnd().split("\n");
    expect(lines).to.have.length(2);
    for (const text of lines) {
      expect(text).to.match(/^::(error|warning) [^:]*::/);
      expect(text).not.to.include("##[");
    }
  });

  it("codesec-drift's Markdown and JSON: no line starts a command, and the JSON parses to the same text", () => {
    const urn = urnOf(APP_TYPE, NAME);
    const old = { type: APP_TYPE, inputs: {}, outputs: { requestId: "7", [FIELD]: NAME } };
    const log =
      line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: APP_TYPE, old } } }) +
      line({
        resOutputsEvent: {
          metadata: {
            op: "update",
            urn,
            type: APP_TYPE,
            old,
            new: { ...old, outputs: { ...old.outputs, [FIELD]: MESSAGE } },
          },
        },
      }) +
      line({ summaryEvent: { result: "succeeded" } });
    const markdown = run(driftCommand, [], log);
    expect(markdown.code, markdown.stderr).to.equal(2);
    expect(commandLines(markdown.stdout)).to.deep.equal([]);
    const json = run(driftCommand, ["--format", "json"], log);
    expect(json.code, json.stderr).to.equal(2);
    expect(commandLines(json.stdout)).to.deep.equal([]);
    expect(JSON.stringify(JSON.parse(json.stdout))).to.include(JSON.stringify(NAME).slice(1, -1));
  });
});
