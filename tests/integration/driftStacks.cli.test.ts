/**
 * `codesec-drift --stack/--all-stacks` running its refreshes as processes: a stand-in `pulumi` on PATH
 * (what the real CLI does that the check relies on: `stack ls --json`, and `refresh --preview-only
 * --event-log FILE` writing an event log, or failing with an `error:` line), so that the spawning, the
 * event log's path and a stopped check are tested without a backend. The real CLI runs it in
 * tests/e2e/exampleWorkflows.test.ts.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bundledEntry } from "../support/bundledEntry";

const ROOT = path.join(__dirname, "../..");

/** The stand-in CLI: records each call in $FAKE_RECORDS, waits $FAKE_DELAY_MS, writes a clean event log. */
const FAKE_PULUMI = `#!${process.execPath}
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
if (args[0] === "stack" && args[1] === "ls" && args.includes("--json")) {
  // FAKE_STACKS: organization/project/name, as --fully-qualify-stack-names shows them (else the name).
  const names = process.env.FAKE_STACKS.split(",").map((name) => args.includes("--fully-qualify-stack-names") ? name : name.split("/").pop());
  process.stdout.write(JSON.stringify(names.map((name) => ({ name, current: false }))));
  process.exit(0);
}
if (args[0] !== "refresh" || !args.includes("--preview-only")) { process.stderr.write("error: unexpected call " + args.join(" ") + "\\n"); process.exit(1); }
const stack = flag("--stack");
// FAKE_STUBBORN: ignores SIGINT and SIGTERM (the real CLI's first one is a graceful cancel), and starts a
// plugin-like child process of its own.
let plugin;
if (process.env.FAKE_STUBBORN) {
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => {});
  plugin = require("node:child_process").spawn(process.execPath, ["-e", "process.on('SIGINT', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
}
fs.writeFileSync(path.join(process.env.FAKE_RECORDS, stack + ".json"), JSON.stringify({ pid: process.pid, plugin: plugin && plugin.pid, debug: process.env.PULUMI_DEBUG_COMMANDS, cwd: process.cwd(), start: Date.now() }));
setTimeout(() => {
  if (stack.startsWith("broken")) { process.stderr.write("Logging in to " + process.env.PULUMI_BACKEND_URL + "\\nerror: no stack named '" + stack + "' found\\n"); process.exit(255); }
  const urn = "urn:pulumi:" + stack + "::org::codesec:index:ScmApp::app";
  const state = { type: "codesec:index:ScmApp", inputs: { scmName: "acme" }, outputs: { scmName: "acme" } };
  const events = [
    { resourcePreEvent: { metadata: { op: "refresh", urn, old: state, new: state } } },
    { resOutputsEvent: { metadata: { op: "same", urn, old: state, new: state } } },
    { summaryEvent: { result: "succeeded" } },
  ];
  fs.writeFileSync(flag("--event-log"), events.map((e) => JSON.stringify(e)).join("\\n") + "\\n");
}, Number(process.env.FAKE_DELAY_MS));
`;

/**
 * bin/codesec-drift.js, with provider/review/commands.ts from `commands`: its sources bundled once, or the
 * sources themselves through ts-node, for the test whose process's coverage counts on them.
 */
const main = (commands: string) =>
  `const { driftMain, processIo } = require(${JSON.stringify(commands)}); ` +
  "driftMain(process.argv.slice(1), processIo, process.env).then((code) => { process.exitCode = code; });";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe("codesec-drift across many stacks, with the CLI's processes", function () {
  this.timeout(60_000);
  let bundleDir: string;
  let commands: string;
  let dir: string;
  let records: string;
  before(() => {
    bundleDir = mkdtempSync(path.join(os.tmpdir(), "drift-stacks-cli-bundle-"));
    commands = bundledEntry("provider/review/commands.ts", path.join(bundleDir, "commands.js"));
  });
  after(() => rmSync(bundleDir, { recursive: true, force: true }));
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "drift-stacks-cli-"));
    records = path.join(dir, "records");
    mkdirSync(records);
    mkdirSync(path.join(dir, "bin"));
    mkdirSync(path.join(dir, "project"));
    writeFileSync(path.join(dir, "project/Pulumi.yaml"), "name: org-config # the project\nruntime: nodejs\n");
    writeFileSync(path.join(dir, "bin/pulumi"), FAKE_PULUMI);
    chmodSync(path.join(dir, "bin/pulumi"), 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function start(args: string[], env: Record<string, string>, fromSource = false) {
    const node = fromSource
      ? ["-r", "ts-node/register/transpile-only", "-e", main(path.join(ROOT, "provider/review/commands.ts"))]
      : ["-e", main(commands)];
    const child = spawn(process.execPath, [...node, "--", ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${path.join(dir, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
        FAKE_RECORDS: records,
        FAKE_DELAY_MS: "0",
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
    const done = new Promise<Run>((resolve) =>
      child.on("close", (code) => resolve({ code, stdout, stderr })),
    );
    return { child, done };
  }

  it("lists the project's stacks (only this project's), refreshes each in the project's folder with the event log, reports a failed one", async () => {
    const { done } = start(["--all-stacks", "--cwd", path.join(dir, "project"), "--format", "json"], {
      FAKE_STACKS:
        "organization/org-config/prod,organization/other-project/prod-of-other,organization/org-config/broken-one,organization/org-config/dev",
      PULUMI_BACKEND_URL: "postgres://u:SEKRETpw@127.0.0.1:9/db",
    });
    const { code, stdout, stderr } = await done;
    expect(stderr).to.equal(
      "codesec-drift: the end of the Pulumi CLI's output for stack broken-one:\n" +
        "  Logging in to postgres://[REDACTED]@127.0.0.1:9/db\n" +
        "  error: no stack named 'broken-one' found\n",
    );
    expect(code).to.equal(1);
    expect(existsSync(path.join(records, "prod-of-other.json")), "another project's stack").to.equal(false);
    const report = JSON.parse(stdout) as { stacks: { stack: string; status: string; errors: string[] }[] };
    expect(report.stacks.map((s) => [s.stack, s.status, s.errors])).to.deep.equal([
      ["prod", "none", []],
      [
        "broken-one",
        "error",
        ["the refresh did not run: the Pulumi CLI wrote no event log", "no stack named 'broken-one' found"],
      ],
      ["dev", "none", []],
    ]);
    for (const stack of ["prod", "dev"]) {
      const call = JSON.parse(readFileSync(path.join(records, `${stack}.json`), "utf8")) as {
        debug: string;
        cwd: string;
      };
      expect([call.debug, call.cwd]).to.deep.equal(["true", path.join(dir, "project")]);
    }
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stopped by ${signal}: stops its refreshes, reports every stack as not finished, exit 1, the baseline left as it was`, async () => {
      const baseline = path.join(dir, "last.json");
      const before = `{"version":1,"comparedWithBaseline":false,"stacks":[],"total":{"stacks":0,"failed":0,"drifted":0,"newDrift":0,"resolved":0},"exitCode":0}\n`;
      writeFileSync(baseline, before);
      const { child, done } = start(
        ["--stack", "a", "--stack", "b", "--stack", "c", "--concurrency", "2", "--baseline", baseline],
        { FAKE_DELAY_MS: "60000" },
      );
      const deadline = Date.now() + 30_000;
      while (readdirSync(records).length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(records).sort()).to.deep.equal(["a.json", "b.json"]);
      child.kill(signal);
      const { code, stdout, stderr } = await done;
      expect(code).to.equal(1);
      expect(stdout).to.match(/^### ❗ codesec drift check failed for 3 of 3 stack\(s\)\n/);
      expect(stdout).to.include(`the Pulumi CLI was stopped (${signal}) before it finished`);
      expect(stdout).to.include(
        `#### ❗ stack \`c\`: the refresh failed\n\n- not started: the check was stopped (${signal})\n`,
      );
      expect(stderr).to.match(
        new RegExp(
          `codesec-drift: stopped \\(${signal}\\) before every refresh finished: the baseline .* is left as it was\\.\\n$`,
        ),
      );
      expect(readFileSync(baseline, "utf8")).to.equal(before);
      expect(readdirSync(dir).filter((f) => f.includes(".partial"))).to.deep.equal([]);
      expect(existsSync(path.join(records, "c.json")), "no refresh starts after the stop").to.equal(false);
      for (const stack of ["a", "b"]) {
        const { pid } = JSON.parse(readFileSync(path.join(records, `${stack}.json`), "utf8")) as {
          pid: number;
        };
        expect(() => process.kill(pid, 0), `refresh of ${stack} still running`).to.throw();
      }
    });
  }

  it("a refresh that does not stop on the first signal gets SIGTERM, then SIGKILL, with the processes it started", async () => {
    // From source: the real process's signals and its refreshes' stops count on the sources.
    const { child, done } = start(
      ["--stack", "a", "--stack", "b"],
      { FAKE_DELAY_MS: "60000", FAKE_STUBBORN: "1" },
      true,
    );
    const deadline = Date.now() + 30_000;
    while (readdirSync(records).length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const stoppedAt = Date.now();
    child.kill("SIGINT");
    const { code, stdout } = await done;
    const took = Date.now() - stoppedAt;
    expect(code).to.equal(1);
    expect(stdout).to.include("the Pulumi CLI was stopped (SIGKILL) before it finished");
    expect(took, "stopped after two grace periods of 2 s").to.be.within(3_500, 10_000);
    for (const stack of ["a", "b"]) {
      const { pid, plugin } = JSON.parse(readFileSync(path.join(records, `${stack}.json`), "utf8")) as {
        pid: number;
        plugin: number;
      };
      for (const [what, id] of [
        ["refresh", pid],
        ["plugin", plugin],
      ] as const) {
        expect(() => process.kill(id, 0), `${what} of ${stack} still running`).to.throw();
      }
    }
  });
});
