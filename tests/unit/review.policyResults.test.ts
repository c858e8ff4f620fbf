/**
 * `codesec-review --format sarif` and `--format annotations`: a preview's policy violations for GitHub
 * code scanning and as workflow annotations, pointing at the program line that declared each resource
 * (from the event log's states, else the stack's exported state, else the project file). The SARIF is
 * validated against the SARIF 2.1.0 JSON schema (as the SARIF technical committee published it, shipped
 * in @microsoft/jest-sarif). A run whose policies were not all checked says so and claims no clean result.
 */
import { expect } from "chai";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { reviewCommand, type CommandIo } from "../../provider/review/commands";

const SCHEMA = JSON.parse(
  readFileSync(require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"), "utf8"),
) as object;
// The schema's language-tag pattern is not valid with the `u` flag, which Ajv sets by default.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validSarif = ajv.compile(SCHEMA);

const TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const urnOf = (name: string) => `urn:pulumi:prod::org::${TYPE}::${name}`;
const STACK_URN = "urn:pulumi:prod::org::pulumi:pulumi:Stack::org-prod";
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;
const POLICY_LOAD = line({ policyLoadEvent: {} });
const SUMMARY = line({ summaryEvent: { result: "succeeded" } });

function create(name: string, sourcePosition?: string): string {
  const state = {
    type: TYPE,
    inputs: { deploymentId: "1001", userId: "505", role: "ORG_ROLE_ADMIN" },
    ...(sourcePosition ? { sourcePosition } : {}),
  };
  return line({ resourcePreEvent: { metadata: { op: "create", urn: urnOf(name), type: TYPE, new: state } } });
}

function violation(urn: string, policyName: string, level: string, message: string): string {
  return line({
    policyEvent: {
      policyName,
      policyPackName: "codesec",
      enforcementLevel: level,
      message: `${policyName} description\n${message}`,
      resourceUrn: urn,
    },
  });
}

function run(args: string[], stdin = "") {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => stdin };
  const code = reviewCommand(args, io);
  return { code, stdout, stderr };
}

interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
}

describe("codesec-review: policy violations as SARIF and workflow annotations", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(os.tmpdir(), "codesec-review-sarif-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const LOG =
    POLICY_LOAD +
    create("lee", "project:///index.ts#12,5") +
    create("max") +
    violation(urnOf("lee"), "codesec-admin-role-on-destroy", "advisory", "user 505 stays admin") +
    violation(urnOf("max"), "codesec-user-declared-twice", "mandatory", "user 505 is declared 2 times") +
    violation(STACK_URN, "codesec-admin-count", "mandatory", "deployment 1001 declares 2 admins") +
    SUMMARY;

  it("SARIF 2.1.0 that validates against the schema, each result at the line that declared its resource", () => {
    const state = path.join(dir, "state.json");
    writeFileSync(
      state,
      JSON.stringify({
        version: 3,
        deployment: {
          resources: [{ urn: urnOf("max"), type: TYPE, sourcePosition: "project:///lib/roles.ts#40" }],
        },
      }),
    );
    const sarif = run(
      ["--events", "-", "--format", "sarif", "--project-dir", "examples/pr-preview", "--state", state],
      LOG,
    );
    expect(sarif.code, sarif.stderr).to.equal(0);
    const log = JSON.parse(sarif.stdout) as {
      runs: { results: SarifResult[]; invocations: unknown[]; tool: unknown }[];
    };
    expect(validSarif(log), JSON.stringify(validSarif.errors, null, 2)).to.equal(true);
    // The validator does refuse a log that breaks the schema: a run without its tool.
    expect(validSarif({ ...log, runs: [{ ...log.runs[0], tool: undefined }] })).to.equal(false);
    const results = log.runs[0].results.map((r) => [
      r.ruleId,
      r.level,
      r.message.text,
      r.locations[0].physicalLocation.artifactLocation.uri,
      r.locations[0].physicalLocation.region,
    ]);
    expect(results).to.deep.equal([
      [
        "codesec-admin-count",
        "error",
        "stack: deployment 1001 declares 2 admins",
        "examples/pr-preview/Pulumi.yaml",
        { startLine: 1 },
      ],
      [
        "codesec-user-declared-twice",
        "error",
        'UserRole "max": user 505 is declared 2 times',
        "examples/pr-preview/lib/roles.ts",
        { startLine: 40 },
      ],
      [
        "codesec-admin-role-on-destroy",
        "warning",
        'UserRole "lee": user 505 stays admin',
        "examples/pr-preview/index.ts",
        { startLine: 12, startColumn: 5 },
      ],
    ]);
    expect(log.runs[0].invocations).to.deep.equal([{ executionSuccessful: true }]);
  });

  it("a preview without a policy pack, or that did not finish, is not a clean result", () => {
    const noPack = JSON.parse(run(["--format", "sarif"], create("lee") + SUMMARY).stdout) as object;
    expect(validSarif(noPack)).to.equal(true);
    expect(noPack).to.deep.include({ version: "2.1.0" });
    expect((noPack as { runs: { invocations: unknown[]; results: unknown[] }[] }).runs[0]).to.deep.include({
      results: [],
      invocations: [
        {
          executionSuccessful: false,
          toolExecutionNotifications: [
            { level: "warning", message: { text: "Policies not fully checked: no policy pack ran." } },
          ],
        },
      ],
    });
    expect(run(["--format", "annotations"], create("lee") + SUMMARY).stdout).to.equal(
      "::warning title=codesec policies not fully checked::no policy pack ran\n",
    );
    expect(run(["--format", "annotations"], POLICY_LOAD + create("lee")).stdout).to.equal(
      "::warning title=codesec policies not fully checked::the preview did not finish: policies were not fully checked\n",
    );
    expect(run(["--format", "annotations"], POLICY_LOAD + create("lee") + SUMMARY).stdout).to.equal("");
  });

  it("workflow annotations: an error per mandatory violation, a warning per advisory one, at the declaring line", () => {
    const annotations = run(["--format", "annotations"], LOG);
    expect(annotations.code, annotations.stderr).to.equal(0);
    expect(annotations.stdout.split("\n")).to.deep.equal([
      "::error file=Pulumi.yaml,line=1,title=mandatory policy codesec-admin-count::stack: deployment 1001 declares 2 admins",
      '::error file=Pulumi.yaml,line=1,title=mandatory policy codesec-user-declared-twice::UserRole "max": user 505 is declared 2 times',
      '::warning file=index.ts,line=12,col=5,title=advisory policy codesec-admin-role-on-destroy::UserRole "lee": user 505 stays admin',
      "",
    ]);
  });

  it("a message cannot start a workflow command of its own, nor hide behind control characters", () => {
    const hostile = "ok\n::stop-commands::x\r\n::error file=a,line=1::forged 100% \u001b[31m\u202e";
    const out = run(
      ["--format", "annotations"],
      POLICY_LOAD + create("a,b:c") + violation(urnOf("a,b:c"), "p", "mandatory", hostile) + SUMMARY,
    ).stdout;
    expect(out.split("\n")).to.deep.equal([
      '::error file=Pulumi.yaml,line=1,title=mandatory policy p::UserRole "a,b:c": ok\\n::stop-commands::x\\r\\n::error file=a,line=1::forged 100%25 \\u001b[31m\\u202e',
      "",
    ]);
  });

  it("SARIF and annotations: a name holding `::` is that resource's name, never another type nor the stack; a message shows its hidden characters and makes no link", () => {
    const names = ["x::pulumi:pulumi:Stack::y", "someone::admin"];
    const log =
      POLICY_LOAD +
      names.map((name) => create(name, "project:///index.ts#7")).join("") +
      names
        .map((name) =>
          violation(urnOf(name), "p", "mandatory", "invoice\u202egnp.exe [approve](https://evil.example)"),
        )
        .join("") +
      SUMMARY;
    const sarif = JSON.parse(run(["--format", "sarif"], log).stdout) as {
      runs: { results: (SarifResult & { locations: { logicalLocations: { name: string }[] }[] })[] }[];
    };
    expect(
      sarif.runs[0].results.map((r) => [
        r.message.text,
        r.locations[0].physicalLocation.artifactLocation.uri,
        r.locations[0].logicalLocations[0].name,
      ]),
    ).to.deep.equal([
      [
        'UserRole "someone::admin": invoice\\u202egnp.exe \\[approve\\](https://evil.example)',
        "index.ts",
        "someone::admin",
      ],
      [
        'UserRole "x::pulumi:pulumi:Stack::y": invoice\\u202egnp.exe \\[approve\\](https://evil.example)',
        "index.ts",
        "x::pulumi:pulumi:Stack::y",
      ],
    ]);
    const annotations = run(["--format", "annotations"], log).stdout.split("\n");
    expect(annotations[1]).to.equal(
      '::error file=index.ts,line=7,title=mandatory policy p::UserRole "x::pulumi:pulumi:Stack::y": invoice\\u202egnp.exe [approve](https://evil.example)',
    );
  });

  it("positions outside the repository, or of another form, fall back to the project file", () => {
    const outside = run(
      ["--format", "annotations"],
      POLICY_LOAD +
        create("x", "file:///elsewhere/index.ts#3") +
        violation(urnOf("x"), "p", "advisory", "m") +
        SUMMARY,
    ).stdout;
    expect(outside).to.equal('::warning file=Pulumi.yaml,line=1,title=advisory policy p::UserRole "x": m\n');
    const escaping = run(
      ["--format", "annotations", "--project-dir", "infra"],
      POLICY_LOAD +
        create("y", "project:///../../etc/passwd#3") +
        violation(urnOf("y"), "p", "advisory", "m") +
        SUMMARY,
    ).stdout;
    expect(escaping).to.equal(
      '::warning file=infra/Pulumi.yaml,line=1,title=advisory policy p::UserRole "y": m\n',
    );
    const inside = run(
      ["--format", "annotations"],
      POLICY_LOAD +
        create("z", `file://${process.cwd()}/infra/main.ts#7,2`) +
        violation(urnOf("z"), "p", "advisory", "m") +
        SUMMARY,
    ).stdout;
    expect(inside).to.equal(
      '::warning file=infra/main.ts,line=7,col=2,title=advisory policy p::UserRole "z": m\n',
    );
  });

  it("without the event log there is no policy result to give: exit 1, saying what to give", () => {
    const preview = JSON.stringify({ steps: [], changeSummary: {} });
    const sarif = run(["--format", "sarif"], preview);
    expect(sarif.code).to.equal(1);
    expect(sarif.stderr.split("\n")[0]).to.equal(
      "--format sarif lists policy violations, which `pulumi preview --json` leaves out: give the event log (--events)",
    );
    expect(run(["--format", "html"], preview).stderr.split("\n")[0]).to.equal(
      "--format must be markdown, sarif or annotations, got html",
    );
  });
});
