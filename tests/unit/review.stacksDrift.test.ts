/**
 * `codesec-drift --stack ... / --all-stacks`: the refreshes of many stacks, run at most --concurrency at a
 * time, reported per stack and in total, compared with the last report (--baseline) so that only new
 * drift is alerted. The refreshes are stood in for (what the Pulumi CLI leaves: an event log, its output,
 * how it ended).
 */
import { expect } from "chai";
import Ajv from "ajv";
import {
  closeSync,
  existsSync,
  openSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { driftMain, type StackRefresher } from "../../provider/review/commands";
import { StackListError, type RefreshRun } from "../../provider/review/stackRefresh";
import type { StacksDriftReport } from "../../provider/review/stacksDrift";

const reportOf = (json: string) => JSON.parse(json) as StacksDriftReport;

const TOKEN = "cst_live_0123456789abcdefSECRET";

/** Drift of one ScmApp (its scmName as the platform has it) or none (`undefined`). */
interface Platform {
  readonly scmName?: string;
  readonly role?: string;
}

const urn = (stack: string, kind: string, name: string) =>
  `urn:pulumi:${stack}::org::codesec:index:${kind}::${name}`;

/** The event log of a finished refresh of `stack`: an ScmApp "app" and a UserRole "me", as the platform has them. */
function eventLog(stack: string, platform: Platform = {}): string {
  const resource = (
    kind: string,
    name: string,
    state: Record<string, unknown>,
    now: Record<string, unknown>,
  ) => {
    const old = { type: `codesec:index:${kind}`, inputs: state, outputs: state };
    const next = { type: `codesec:index:${kind}`, inputs: state, outputs: now };
    const changed = JSON.stringify(state) !== JSON.stringify(now);
    return [
      { resourcePreEvent: { metadata: { op: "refresh", urn: urn(stack, kind, name), old, new: next } } },
      {
        resOutputsEvent: {
          metadata: { op: changed ? "update" : "same", urn: urn(stack, kind, name), old, new: next },
        },
      },
    ];
  };
  const app = { deploymentId: "1001", scmName: "acme" };
  const role = { deploymentId: "1001", userId: "501", role: "ORG_ROLE_ADMIN" };
  return [
    ...resource("ScmApp", "app", app, { ...app, ...(platform.scmName ? { scmName: platform.scmName } : {}) }),
    ...resource("UserRole", "me", role, { ...role, ...(platform.role ? { role: platform.role } : {}) }),
    { summaryEvent: { result: "succeeded" } },
  ]
    .map((event) => JSON.stringify(event))
    .join("\n");
}

const finished = (events: string): RefreshRun => ({ events, cliOutput: "", exitCode: 0, signal: null });

/** A refresher whose stacks drift as `platforms` says, counting the refreshes running at once. */
function refresher(
  platforms: Record<string, Platform | RefreshRun>,
  delayMs = 0,
): StackRefresher & { maxRunning: number; calls: string[] } {
  let running = 0;
  const state = {
    project: "org",
    maxRunning: 0,
    calls: [] as string[],
    listStacks: async () => Object.keys(platforms),
    refresh: async (stack: string): Promise<RefreshRun> => {
      state.calls.push(stack);
      running++;
      state.maxRunning = Math.max(state.maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      running--;
      const given: Platform | RefreshRun | undefined = platforms[stack];
      if (given === undefined) throw new Error(`no stack ${stack} in this test`);
      return "events" in given ? given : finished(eventLog(stack, given));
    },
  };
  return state;
}

async function run(args: string[], use: StackRefresher, env: NodeJS.ProcessEnv = { CODESEC_TOKEN: TOKEN }) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (t: string) => (stdout += t), stderr: (t: string) => (stderr += t), stdin: () => "" };
  const code = await driftMain(args, io, env, use);
  return { code, stdout, stderr };
}

describe("codesec-drift across many stacks", () => {
  let dir: string;
  let baseline: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "stacks-drift-"));
    baseline = path.join(dir, "last.json");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reports each stack and the total; exit 2 when a stack drifted", async () => {
    const use = refresher({ prod: { scmName: "renamed" }, staging: {}, dev: {} });
    const { code, stdout, stderr } = await run(["--all-stacks"], use);
    expect(stderr).to.equal("");
    expect(code).to.equal(2);
    expect(stdout.split("\n").slice(0, 12)).to.deep.equal([
      "### ❌ codesec drift across 3 stack(s): 1 resource(s) newly differ from the platform",
      "",
      "| stack | result |",
      "|---|---|",
      "| prod | ❌ 1 resource(s) differ: 1 new, 0 reported before |",
      "| staging | ✅ no drift |",
      "| dev | ✅ no drift |",
      "",
      "Total: 3 stack(s), 0 failed; 1 resource(s) differ (1 new); 0 resolved (no baseline: every drift counts as new).",
      "",
      "#### stack `prod`",
      "",
    ]);
    expect(stdout).to.include(
      'New drift:\n\n| resource | field | state | platform |\n|---|---|---|---|\n| ScmApp "app" | scmName | "acme" | "renamed" |\n',
    );
  });

  it("no drift anywhere: exit 0 and one headline", async () => {
    const { code, stdout } = await run(
      ["--stack", "prod", "--stack", "staging"],
      refresher({ prod: {}, staging: {} }),
    );
    expect(code).to.equal(0);
    expect(stdout).to.match(/^### ✅ No drift across 2 stack\(s\)\n/);
  });

  it("JSON output matches its documented schema (docs/drift-report.schema.json)", async () => {
    const failed: RefreshRun = {
      events: "",
      cliOutput: "error: no stack named 'gone' found\n",
      exitCode: 255,
      signal: null,
    };
    const { code, stdout } = await run(
      ["--stack", "prod", "--stack", "gone", "--stack", "dev", "--format", "json"],
      refresher({ prod: { scmName: "renamed", role: "ORG_ROLE_MEMBER" }, gone: failed, dev: {} }),
    );
    expect(code).to.equal(1);
    const report = reportOf(stdout);
    const schema: unknown = JSON.parse(
      readFileSync(path.join(__dirname, "../../docs/drift-report.schema.json"), "utf8"),
    );
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema as object);
    expect(validate(report), JSON.stringify(validate.errors)).to.equal(true);
    expect(report.total).to.deep.equal({ stacks: 3, failed: 1, drifted: 2, newDrift: 2, resolved: 0 });
    expect(report.stacks.map((s) => [s.stack, s.status])).to.deep.equal([
      ["prod", "drift"],
      ["gone", "error"],
      ["dev", "none"],
    ]);
    expect(validate({ ...report, exitCode: 3 }), "the schema refuses what the tool does not write").to.equal(
      false,
    );
  });

  it("one stack's refresh fails: that stack is an error, the others are still reported, exit 1", async () => {
    const failed: RefreshRun = {
      events: "",
      cliOutput: "Enter your passphrase...\nerror: getting secrets manager: incorrect passphrase\n",
      exitCode: 255,
      signal: null,
    };
    const { code, stdout } = await run(
      ["--stack", "prod", "--stack", "staging"],
      refresher({ prod: failed, staging: { scmName: "renamed" } }),
    );
    expect(code).to.equal(1);
    expect(stdout).to.match(
      /^### ❗ codesec drift check failed for 1 of 2 stack\(s\); 1 resource\(s\) newly differ from the platform\n/,
    );
    expect(stdout).to.include("| prod | ❗ the refresh failed (2 error(s)) |");
    expect(stdout).to.include("| staging | ❌ 1 resource(s) differ: 1 new, 0 reported before |");
    expect(stdout).to.include(
      "#### ❗ stack `prod`: the refresh failed\n\n- the refresh did not run: the Pulumi CLI wrote no event log\n- getting secrets manager: incorrect passphrase\n",
    );
    expect(stdout).to.include('| ScmApp "app" | scmName | "acme" | "renamed" |');
  });

  it("a refresh stopped by a signal, or cut mid-line, is an error of its stack", async () => {
    const cut = eventLog("prod").split("\n").slice(0, 2).join("\n") + '\n{"summaryEv';
    const { code, stdout } = await run(
      ["--stack", "prod", "--stack", "dev", "--format", "json"],
      refresher({ prod: { events: cut, cliOutput: "", exitCode: null, signal: "SIGKILL" }, dev: {} }),
    );
    expect(code).to.equal(1);
    const prod = reportOf(stdout).stacks[0];
    expect(prod.errors).to.deep.equal([
      "the refresh did not finish: its event log stops before the end (the run was stopped or killed)",
      "the Pulumi CLI was stopped (SIGKILL) before it finished",
    ]);
  });

  it("a secret in a refresh's error text or the CLI's output is never printed", async () => {
    const leaking: RefreshRun = {
      events: [
        JSON.stringify({ diagnosticEvent: { severity: "error", message: `401 for token ${TOKEN}` } }),
        JSON.stringify({ summaryEvent: { result: "failed" } }),
      ].join("\n"),
      cliOutput: `error: bad header Authorization: Bearer ${TOKEN}\n`,
      exitCode: 255,
      signal: null,
    };
    const noLog: RefreshRun = {
      events: "",
      cliOutput: `error: passphrase ${"pass-phrase-of-the-stack"} rejected\n`,
      exitCode: 255,
      signal: null,
    };
    for (const format of ["markdown", "json"]) {
      const { code, stdout, stderr } = await run(
        ["--stack", "prod", "--stack", "dev", "--format", format, "--baseline", baseline],
        refresher({ prod: leaking, dev: noLog }),
        { CODESEC_TOKEN: TOKEN, PULUMI_CONFIG_PASSPHRASE: "pass-phrase-of-the-stack" },
      );
      expect(code).to.equal(1);
      const printed = stdout + stderr;
      expect(printed).to.match(/\\?\[REDACTED\\?\]/);
      expect(printed).not.to.include(TOKEN);
      expect(printed).not.to.include("pass-phrase-of-the-stack");
    }
  });

  it("alerts only on new drift: persisting drift is shown, not alerted; resolved drift is noted", async () => {
    const args = ["--stack", "prod", "--stack", "staging", "--baseline", baseline];
    const first = await run(args, refresher({ prod: { scmName: "renamed" }, staging: {} }));
    expect(first.stderr).to.equal(
      `codesec-drift: no baseline at ${baseline} yet (a first run): every drift counts as new; this run writes it.\n`,
    );
    expect(first.code).to.equal(2);
    expect(reportOf(readFileSync(baseline, "utf8")).total.newDrift).to.equal(1);

    const second = await run(args, refresher({ prod: { scmName: "renamed" }, staging: {} }));
    expect([second.code, second.stderr]).to.deep.equal([0, ""]);
    expect(second.stdout).to.match(
      /^### ⚠️ No new drift across 2 stack\(s\): 1 resource\(s\) still differ, reported before\n/,
    );
    expect(second.stdout).to.include("| prod | ⚠️ 1 resource(s) differ: 0 new, 1 reported before |");
    expect(second.stdout).to.include(
      'Reported before (not alerted again):\n\n| resource | field | state | platform |\n|---|---|---|---|\n| ScmApp "app" | scmName | "acme" | "renamed" |',
    );

    // The platform's value changed again, and a second resource drifted: both new.
    const third = await run(
      args,
      refresher({ prod: { scmName: "renamed-twice" }, staging: { role: "ORG_ROLE_MEMBER" } }),
    );
    expect(third.code).to.equal(2);
    expect(third.stdout).to.include("| prod | ❌ 1 resource(s) differ: 1 new, 0 reported before |");
    expect(third.stdout).to.include("| staging | ❌ 1 resource(s) differ: 1 new, 0 reported before |");

    const fourth = await run(args, refresher({ prod: {}, staging: { role: "ORG_ROLE_MEMBER" } }));
    expect(fourth.code).to.equal(0);
    expect(fourth.stdout).to.include("| prod | ✅ no drift; 1 resolved |");
    expect(fourth.stdout).to.include('Resolved since the last report:\n\n- ScmApp "app"\n');
  });

  it("a stack that failed keeps its drift in the baseline: it is not alerted again when the stack recovers", async () => {
    const args = ["--stack", "prod", "--baseline", baseline];
    await run(args, refresher({ prod: { scmName: "renamed" } }));
    const failed: RefreshRun = {
      events: "",
      cliOutput: "error: network down\n",
      exitCode: 255,
      signal: null,
    };
    const before = readFileSync(baseline, "utf8");
    expect((await run(args, refresher({ prod: failed }))).code).to.equal(1);
    expect(readFileSync(baseline, "utf8")).to.equal(before);
    const recovered = await run(args, refresher({ prod: { scmName: "renamed" } }));
    expect(recovered.code).to.equal(0);
  });

  it("new drift of a run where another stack failed is alerted again by the next run: the baseline is left as it was", async () => {
    const args = ["--stack", "prod", "--stack", "staging", "--baseline", baseline];
    await run(args, refresher({ prod: {}, staging: {} }));
    const before = readFileSync(baseline, "utf8");
    const failed: RefreshRun = {
      events: "",
      cliOutput: "error: network down\n",
      exitCode: 255,
      signal: null,
    };
    const first = await run(args, refresher({ prod: { scmName: "renamed" }, staging: failed }));
    expect(first.code).to.equal(1);
    expect(first.stdout).to.match(
      /^### ❗ codesec drift check failed for 1 of 2 stack\(s\); 1 resource\(s\) newly differ from the platform\n/,
    );
    expect(first.stderr).to.include(
      `codesec-drift: a refresh failed: the baseline ${baseline} is left as it was, so this run's new drift is alerted again by the next run.\n`,
    );
    expect(readFileSync(baseline, "utf8")).to.equal(before);
    const second = await run(args, refresher({ prod: { scmName: "renamed" }, staging: {} }));
    expect(second.code).to.equal(2);
    expect(second.stdout).to.match(/^### ❌ codesec drift across 2 stack\(s\): 1 resource\(s\) newly differ/);
  });

  it("backend credentials in a URL, cloud secrets and the passphrase file's content are never printed", async () => {
    const passphraseFile = path.join(dir, "passphrase.txt");
    writeFileSync(passphraseFile, "file-held-passphrase-value\n");
    const env = {
      CODESEC_TOKEN: TOKEN,
      PULUMI_BACKEND_URL: "postgres://u:SEKRETpw@127.0.0.1:9/db",
      PULUMI_CONFIG_PASSPHRASE_FILE: passphraseFile,
      AZURE_CLIENT_SECRET: "azure-client-secret-value",
      AZURE_STORAGE_SAS_TOKEN: "sv=2022&sig=azure-sas-signature",
      GOOGLE_CREDENTIALS: '{"private_key":"google-private-key-value"}',
    };
    const failed: RefreshRun = {
      events: "",
      cliOutput:
        "error: failed to connect to backend postgres://u:SEKRETpw@127.0.0.1:9/db: refused\n" +
        "error: blob https://acct.blob.core.windows.net/state?sv=2022&sig=OTHERSIG rejected\n" +
        "error: auth azure-client-secret-value google-private-key-value file-held-passphrase-value\n",
      exitCode: 255,
      signal: null,
    };
    const { code, stdout, stderr } = await run(
      ["--stack", "prod", "--format", "json", "--baseline", baseline],
      refresher({ prod: failed }),
      env,
    );
    expect(code).to.equal(1);
    const printed = stdout + stderr + (existsSync(baseline) ? readFileSync(baseline, "utf8") : "");
    for (const secret of [
      "SEKRETpw",
      "OTHERSIG",
      "azure-client-secret-value",
      "google-private-key-value",
      "file-held-passphrase-value",
    ]) {
      expect(printed, secret).not.to.include(secret);
    }
    expect(stdout).to.include("postgres://[REDACTED]@127.0.0.1:9/db");

    const listing: StackRefresher = {
      project: "org",
      refresh: refresher({}).refresh,
      listStacks: () =>
        Promise.reject(
          new StackListError(
            "could not list the project's stacks",
            "error: postgres://u:SEKRETpw@127.0.0.1:9/db down",
          ),
        ),
    };
    const listed = await run(["--all-stacks"], listing, env);
    expect(listed.code).to.equal(1);
    expect(listed.stderr).to.include("postgres://[REDACTED]@127.0.0.1:9/db down");
    expect(listed.stderr).not.to.include("SEKRET");
  });

  it("a baseline that cannot be written: exit 1 saying what to do, the report still printed, no partial file left", async () => {
    const missing = path.join(dir, "no-such-folder", "last.json");
    const { code, stdout, stderr } = await run(
      ["--stack", "prod", "--baseline", missing],
      refresher({ prod: { scmName: "renamed" } }),
    );
    expect(code).to.equal(1);
    expect(stdout).to.match(/^### ❌ codesec drift across 1 stack\(s\)/);
    expect(stderr.split("\n").slice(-2)).to.deep.equal([
      `codesec-drift: could not write the baseline ${missing} (its folder does not exist): give --baseline a file in a folder that exists and can be written. The next run compares with the last baseline written, so this run's drift is alerted again (without this failure the check would exit 2).`,
      "",
    ]);
    expect(stderr).not.to.include("usage:");

    // The rename fails after the partial file was written (another file system, a full disk):
    // the partial file is removed, the last baseline stays.
    await run(["--stack", "prod", "--baseline", baseline], refresher({ prod: {} }));
    const before = readFileSync(baseline, "utf8");
    const rename = fs.renameSync;
    fs.renameSync = () => {
      throw Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
    };
    let blocked;
    try {
      blocked = await run(
        ["--stack", "prod", "--baseline", baseline],
        refresher({ prod: { scmName: "renamed" } }),
      );
    } finally {
      fs.renameSync = rename;
    }
    expect(blocked.code).to.equal(1);
    expect(blocked.stderr).to.include(
      `codesec-drift: could not write the baseline ${baseline} (EXDEV: cross-device link not permitted): give --baseline a file in a folder that exists`,
    );
    expect(readFileSync(baseline, "utf8")).to.equal(before);
    expect(readdirSync(dir).filter((name) => name.includes(".partial"))).to.deep.equal([]);
  });

  it("the baseline is replaced whole: a reader that opened the last one reads it whole, never a part of the new one", async () => {
    const args = ["--stack", "prod", "--baseline", baseline];
    await run(args, refresher({ prod: {} }));
    const before = readFileSync(baseline, "utf8");
    const reader = openSync(baseline, "r");
    try {
      const { code } = await run(args, refresher({ prod: { scmName: "renamed" } }));
      expect(code).to.equal(2);
      expect(readFileSync(reader, "utf8"), "what the reader had open").to.equal(before);
      expect(reportOf(readFileSync(baseline, "utf8")).total.newDrift).to.equal(1);
    } finally {
      closeSync(reader);
    }
  });

  it("the report records the project and the backend without credentials; a baseline of another one is refused before any refresh", async () => {
    const env = { CODESEC_TOKEN: TOKEN, PULUMI_BACKEND_URL: "postgres://u:SEKRETpw@127.0.0.1:9/db" };
    await run(["--stack", "prod", "--baseline", baseline], refresher({ prod: { scmName: "renamed" } }), env);
    const written = readFileSync(baseline, "utf8");
    expect([reportOf(written).project, reportOf(written).backend]).to.deep.equal([
      "org",
      "postgres://[REDACTED]@127.0.0.1:9/db",
    ]);
    const other = { ...refresher({ prod: {} }), project: "other-project" };
    const refused = await run(["--stack", "prod", "--baseline", baseline], other, env);
    expect([refused.code, refused.stdout]).to.deep.equal([1, ""]);
    expect(refused.stderr).to.equal(
      `codesec-drift: the baseline ${baseline} is the report of project org on postgres://[REDACTED]@127.0.0.1:9/db, and this run checks project other-project on postgres://[REDACTED]@127.0.0.1:9/db: give --baseline this project's own file (one file per project and backend), or delete the file to start over (every drift then counts as new).\n`,
    );
    expect(other.calls).to.deep.equal([]);
    const elsewhere = await run(["--stack", "prod", "--baseline", baseline], refresher({ prod: {} }), {
      CODESEC_TOKEN: TOKEN,
      PULUMI_BACKEND_URL: "s3://another-bucket",
    });
    expect(elsewhere.code).to.equal(1);
    expect(elsewhere.stderr).to.include("and this run checks project org on s3://another-bucket:");
    expect(readFileSync(baseline, "utf8")).to.equal(written);
  });

  it("stacks of the baseline not checked in this run keep their drift in the next baseline", async () => {
    await run(
      ["--stack", "prod", "--stack", "staging", "--baseline", baseline],
      refresher({ prod: { scmName: "renamed" }, staging: {} }),
    );
    const staging = await run(["--stack", "staging", "--baseline", baseline], refresher({ staging: {} }));
    expect(staging.code).to.equal(0);
    expect(staging.stdout).not.to.include("resolved since");
    expect(
      reportOf(readFileSync(baseline, "utf8")).otherStacks?.map((s) => [s.stack, s.drifted.length]),
    ).to.deep.equal([["prod", 1]]);
    const prod = await run(
      ["--stack", "prod", "--baseline", baseline],
      refresher({ prod: { scmName: "renamed" } }),
    );
    expect(prod.code, "prod's drift was reported before").to.equal(0);
    const schema: unknown = JSON.parse(
      readFileSync(path.join(__dirname, "../../docs/drift-report.schema.json"), "utf8"),
    );
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema as object);
    expect(validate(reportOf(readFileSync(baseline, "utf8"))), JSON.stringify(validate.errors)).to.equal(
      true,
    );
    expect(reportOf(readFileSync(baseline, "utf8")).otherStacks?.map((s) => s.stack)).to.deep.equal([
      "staging",
    ]);
  });

  it("a failed stack's CLI output ends on stderr, redacted, even without an error line", async () => {
    const failed: RefreshRun = {
      events: "",
      cliOutput: `${"noise\n".repeat(30)}Enter your passphrase to unlock config/secrets\n    (set PULUMI_CONFIG_PASSPHRASE)\n::error::forged\nleaked ${TOKEN}\n`,
      exitCode: 255,
      signal: null,
    };
    const { code, stderr } = await run(
      ["--stack", "prod", "--stack", "dev"],
      refresher({ prod: failed, dev: {} }),
    );
    expect(code).to.equal(1);
    const lines = stderr.split("\n");
    expect(lines[0]).to.equal("codesec-drift: the end of the Pulumi CLI's output for stack prod:");
    expect(lines.slice(1, -1)).to.have.length(20);
    expect(lines.slice(-5)).to.deep.equal([
      "  Enter your passphrase to unlock config/secrets",
      "      (set PULUMI_CONFIG_PASSPHRASE)",
      "  \u200b::error::forged",
      "  leaked [REDACTED]",
      "",
    ]);
  });

  for (const [what, content] of [
    ["cut short", '{"version": 1, "stacks": ['],
    ["another tool's JSON", '{"summary": "ok"}'],
    [
      "a report with a stack that is not one",
      '{"version": 1, "stacks": [{"stack": "prod", "drifted": [{"urn": 3}]}]}',
    ],
  ]) {
    it(`a corrupt baseline (${what}): exit 1 saying what to do, before any refresh; the file is left as it was`, async () => {
      writeFileSync(baseline, content);
      const use = refresher({ prod: {} });
      const { code, stdout, stderr } = await run(["--stack", "prod", "--baseline", baseline], use);
      expect([code, stdout]).to.deep.equal([1, ""]);
      expect(stderr).to.match(
        new RegExp(
          `^codesec-drift: the baseline ${baseline.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} cannot be read: .+\\. It must be the JSON report a run of codesec-drift with --baseline wrote: restore the job's last one, or delete the file to start over \\(every drift then counts as new\\)\\.\n$`,
        ),
      );
      expect(use.calls).to.deep.equal([]);
      expect(readFileSync(baseline, "utf8")).to.equal(content);
    });
  }

  it("runs at most --concurrency refreshes at once, and uses all of them", async () => {
    const stacks = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, {}]));
    for (const [limit, expected] of [
      ["3", 3],
      ["1", 1],
      ["32", 10],
    ] as const) {
      const use = refresher(stacks, 20);
      const { code } = await run(["--all-stacks", "--concurrency", limit], use);
      expect(code).to.equal(0);
      expect(use.calls).to.have.length(10);
      expect(use.maxRunning, `--concurrency ${limit}`).to.equal(expected);
    }
    const byDefault = refresher(stacks, 20);
    await run(["--all-stacks"], byDefault);
    expect(byDefault.maxRunning, "the default limit").to.equal(4);
  });

  for (const value of ["0", "-1", "abc", "3x", "33", ""]) {
    it(`--concurrency ${JSON.stringify(value)} is an error that says what it takes`, async () => {
      const use = refresher({ prod: {} });
      const { code, stdout, stderr } = await run(["--stack", "prod", `--concurrency=${value}`], use);
      expect([code, stdout]).to.deep.equal([1, ""]);
      expect(stderr.split("\n")[0]).to.equal(
        `--concurrency must be a whole number from 1 to 32 (refreshes run at once), got ${JSON.stringify(value)}`,
      );
      expect(use.calls).to.deep.equal([]);
    });
  }

  it("refuses a stack name that is none, an event log given with --stack, --stack with --all-stacks, and the many-stack flags without either", async () => {
    const cases: [string[], string][] = [
      [["--stack=--color=always"], "is no stack name"],
      [["--stack", "prod", "events.jsonl"], "give an event log, or --stack / --all-stacks"],
      [["--stack", "prod", "--all-stacks"], "give --stack or --all-stacks, not both"],
      [["--stack", "prod", "--stack", "prod"], "a stack is named twice"],
      [
        ["events.jsonl", "--baseline", "last.json"],
        "--baseline: for many stacks, with --stack or --all-stacks",
      ],
      [["events.jsonl", "--concurrency=2", "--cwd", "."], "--cwd, --concurrency: for many stacks"],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await run(args, refresher({ prod: {} }));
      expect(code, args.join(" ")).to.equal(1);
      expect(stderr, args.join(" ")).to.include(message);
    }
  });

  it("a resource name cannot rewrite the report", async () => {
    const hostile = "x | injected | cell |\n\n### ✅ No drift <!--";
    const events = eventLog("prod", { scmName: "renamed" }).replaceAll(
      "::app",
      `::${JSON.stringify(hostile).slice(1, -1)}`,
    );
    const { stdout } = await run(["--stack", "prod"], refresher({ prod: finished(events) }));
    const lines = stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("### "))).to.have.length(1);
    expect(stdout).not.to.include("<!--");
    expect(lines.find((line) => line.startsWith("| ScmApp"))).to.equal(
      '| ScmApp "x \\| injected \\| cell \\|\\\\n\\\\n### ✅ No drift &lt;\\!--" | scmName | "acme" | "renamed" |',
    );
  });

  it("without --stack or --all-stacks it reads one event log", async () => {
    const file = path.join(dir, "events.jsonl");
    writeFileSync(file, eventLog("prod"));
    const { code, stdout } = await run([file], refresher({}));
    expect(code).to.equal(0);
    expect(stdout).to.match(/^✅ No drift in stack `prod`/);
    expect(existsSync(baseline)).to.equal(false);
  });
});

describe("docs/review-and-drift.md's example of many stacks", () => {
  it("is what codesec-drift prints", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "stacks-drift-doc-"));
    try {
      const baseline = path.join(dir, "last.json");
      await run(["--stack", "staging", "--baseline", baseline], refresher({ staging: {} }));
      const failed: RefreshRun = {
        events: "",
        cliOutput: "error: getting secrets manager: incorrect passphrase\n",
        exitCode: 255,
        signal: null,
      };
      const { code, stdout } = await run(
        ["--stack", "prod", "--stack", "staging", "--stack", "dev", "--baseline", baseline],
        refresher({ prod: { scmName: "renamed" }, staging: {}, dev: failed }),
      );
      expect(code).to.equal(1);
      const page = readFileSync(path.join(__dirname, "../../docs/review-and-drift.md"), "utf8");
      const block = /```text\n(### ❗ codesec drift check failed for 1 of 3 stack\(s\);.*\n[\s\S]*?)```/.exec(
        page,
      );
      expect(block?.[1]).to.equal(stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
