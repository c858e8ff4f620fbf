/**
 * Every shell command block of README.md and examples/*\/README.md, run as written: in a copy of the
 * repository as `npm ci && npm run setup` leaves it (its files, the built packages, node_modules and
 * .tools linked from this checkout), with a home folder of its own, a user's PATH (without the project's
 * tools, which the READMEs must put there themselves) and the emulator standing in for the platform.
 * Each command must exit 0, except the ones the page says fail (`# fails` after them), and each page's
 * key output lines must appear; no command's output may show an error, unless the page says it fails
 * (support/cliOutput.ts). A block that cannot run in CI says why in a `<!-- not run: ... -->`
 * comment; a block of servers (`<!-- each line runs until stopped -->`) has each line started, checked
 * to serve, and stopped. The only stand-in for the user is PULUMI_SKIP_CONFIRMATIONS, the answer to the
 * CLI's "Do you want to perform this update?".
 */
import { expect } from "chai";
import { execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import {
  commandLines,
  expectedToFail,
  inBackground,
  shellBlocks,
  type ShellBlock,
} from "../support/markdownShell";
import { assertNoUnexpectedErrors } from "./support/cliOutput";
import { repoRoot, requirePulumiCli, scratchDir, timeLimitFor } from "./support/harness";

const PAGES = [
  "README.md",
  ...readdirSync(path.join(repoRoot, "examples"))
    .filter((name) => existsSync(path.join(repoRoot, "examples", name, "README.md")))
    .sort()
    .map((name) => `examples/${name}/README.md`),
];

/** Lines each page's runnable blocks must print (what its comments promise), by page. */
const KEY_OUTPUT: Record<string, RegExp[]> = {
  "examples/org-config/README.md": [/\+ 7 to create/, /\+ 7 created/, /7 unchanged/],
  "examples/drift-check/README.md": [
    /deployment 1001 has 2 health problem\(s\)/,
    /"healthy": false/,
    /notification rule 5 "broken-webhook" \(webhook\): config_error/,
  ],
  "examples/pr-preview/README.md": [
    /\+ 3 created/,
    /~ role\s*:\s*"ORG_ROLE_ADMIN" => "ORG_ROLE_READONLY"/,
    /\+-pulumi-nodejs:dynamic\/codesec:UserRole: \(replace\)/,
    /- 3 deleted/,
  ],
};

const parsed = PAGES.map((page) => shellBlocks(repoRoot, page));
const blocks = parsed.flatMap((p) => p.blocks);

/** Quoted for bash, as one word. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The block as one bash script: each command as written, announced by a `### <page>:<line> $ <command>`
 * line, then (background commands aside) its exit status, `### <page>:<line> exited <status>`, and a check
 * of it. Its stderr goes to its stdout, so that each command's output lies between its two lines.
 */
function scriptOf(block: ShellBlock): string {
  const out = ["#!/usr/bin/env bash", `# ${block.file}:${block.line}, as written`, "exec 2>&1"];
  for (const { line, text } of commandLines(block)) {
    const where = `${block.file}:${line}`;
    out.push(`printf '\\n### %s $ %s\\n' ${shellWord(where)} ${shellWord(text.trim())}`, text);
    if (inBackground(text)) continue;
    out.push(`status=$?; printf '\\n### %s exited %s\\n' ${shellWord(where)} "$status"`);
    out.push(
      expectedToFail(text)
        ? `if [ $status -eq 0 ]; then echo "### ${where} succeeded; the page says it fails"; exit 98; fi`
        : `if [ $status -ne 0 ]; then exit 97; fi`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** Each foreground command's output in a run of scriptOf: the lines between its two `###` lines. */
function commandOutputs(output: string): { command: string; code: number; output: string }[] {
  const found: { command: string; code: number; output: string }[] = [];
  let current: { command: string; lines: string[] } | undefined;
  for (const line of output.split("\n")) {
    const started = /^### \S+ \$ (.*)$/.exec(line);
    const exited = /^### \S+ exited (\d+)$/.exec(line);
    if (started) current = { command: started[1], lines: [] };
    else if (exited && current) {
      found.push({ command: current.command, code: Number(exited[1]), output: current.lines.join("\n") });
      current = undefined;
    } else current?.lines.push(line);
  }
  return found;
}

/** Pulumi CLI commands in a block (each one is a wait the test is bounded by). */
function cliCommands(block: ShellBlock): number {
  return commandLines(block).filter(({ text }) => /(^|&&|;)\s*pulumi\s/.test(text)).length;
}

/** A link farm standing for `node_modules`: links kept as they are (the workspaces' point into the copy). */
function mirrorNodeModules(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.name === ".bin") mirrorNodeModules(source, target);
    else symlinkSync(source, target);
  }
}

/** This checkout as `npm ci && npm run setup` leaves a clone: its files, the builds, modules and tools. */
function repositoryCopy(): string {
  const copy = scratchDir("repository");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(repoRoot, file)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    copyFileSync(path.join(repoRoot, file), path.join(copy, file));
  }
  for (const built of ["dist", "emulator/dist"]) {
    cpSync(path.join(repoRoot, built), path.join(copy, built), { recursive: true });
  }
  symlinkSync(path.join(repoRoot, ".tools"), path.join(copy, ".tools"));
  mirrorNodeModules(path.join(repoRoot, "node_modules"), path.join(copy, "node_modules"));
  return copy;
}

/** A user's PATH: this process's, without the project's tools and npm's node_modules/.bin entries. */
function userPath(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !dir.startsWith(`${repoRoot}${path.sep}`))
    .filter((dir) => !dir.split(path.sep).includes("node_modules"))
    .join(path.delimiter);
}

interface Started {
  output(): string;
  /** Resolves with bash's exit code (a background job may still run). */
  exited: Promise<number | null>;
  /** Ends what is left of the group (background jobs, a server), then resolves once the output closed. */
  stop(): Promise<void>;
}

/** Starts `bash <args>` in a process group of its own (its background jobs too), output collected. */
function startShell(args: string[], cwd: string, env: NodeJS.ProcessEnv): Started {
  const child = spawn("bash", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const chunks: string[] = [];
  child.stdout.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group has ended
    }
  };
  return {
    output: () => chunks.join(""),
    exited,
    stop: async () => {
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), 10_000);
      await closed;
      clearTimeout(timer);
    },
  };
}

function tail(text: string, lines = 60): string {
  return text.split("\n").slice(-lines).join("\n");
}

describe("the shell commands of README.md and the examples' READMEs, run as written", function () {
  let copy: string;
  let env: NodeJS.ProcessEnv;

  it("every shell block runs, or its page says why it cannot (a reason for each)", () => {
    expect(parsed.flatMap((p) => p.problems)).to.deep.equal([]);
    for (const page of PAGES.filter((p) => p.startsWith("examples/"))) {
      expect(
        blocks.filter((b) => b.file === page && b.mode.run !== "no"),
        `${page} has a block that runs`,
      ).to.have.length.greaterThan(0);
    }
    for (const page of Object.keys(KEY_OUTPUT)) {
      expect(blocks.filter((b) => b.file === page && b.mode.run === "asWritten")).to.have.length(1);
    }
  });

  describe("in a copy of the repository, with the emulator for the platform", () => {
    before(function () {
      console.log(`      using ${requirePulumiCli()}`);
      copy = repositoryCopy();
      const home = scratchDir("home");
      env = {
        PATH: userPath(),
        HOME: home,
        TMPDIR: process.env.TMPDIR,
        LANG: "C.UTF-8",
        PULUMI_SKIP_CONFIRMATIONS: "true",
        PULUMI_SKIP_UPDATE_CHECK: "true",
      };
    });

    for (const block of blocks.filter((b) => b.mode.run === "asWritten")) {
      it(`${block.file}:${block.line}: every command as written`, async () => {
        const script = path.join(scratchDir("script"), "block.sh");
        writeFileSync(script, scriptOf(block));
        const run = startShell([script], copy, env);
        const code = await run.exited;
        await run.stop(); // the emulator the block started in the background
        const output = run.output();
        expect(code, tail(output)).to.equal(0);
        for (const command of commandOutputs(output)) {
          assertNoUnexpectedErrors(command, expectedToFail(command.command));
        }
        for (const line of KEY_OUTPUT[block.file] ?? []) expect(output, tail(output)).to.match(line);
      }).timeout(timeLimitFor(cliCommands(block) + 1));
    }

    for (const block of blocks.filter((b) => b.mode.run === "serverPerLine")) {
      for (const { line, text } of commandLines(block)) {
        it(`${block.file}:${line}: ${text.replace(/\s+#.*$/, "")} starts and serves until stopped`, async () => {
          const server = startShell(["-c", text], copy, env);
          let ended = false;
          void server.exited.then(() => (ended = true));
          const deadline = Date.now() + timeLimitFor(1);
          while (!/\n/.test(server.output()) && !ended) {
            if (Date.now() > deadline) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          const firstLine = server.output().split("\n")[0];
          expect(ended, `it ended instead of serving:\n${server.output()}`).to.equal(false);
          if (/--json/.test(text)) {
            const started = JSON.parse(firstLine) as { baseUrl: string; apiToken: string };
            expect(started.baseUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
            const answer = await fetch(`${started.baseUrl}/api/auth/users/current`, {
              headers: { authorization: `Bearer ${started.apiToken}` },
            });
            expect(answer.status).to.equal(200);
          } else {
            expect(firstLine, server.output()).to.match(/\S/);
          }
          await server.stop();
        }).timeout(timeLimitFor(1));
      }
    }
  });
});
