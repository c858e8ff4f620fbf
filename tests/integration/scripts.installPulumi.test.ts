/**
 * scripts/install-pulumi.sh when several set-ups share one CLI cache (clones set up at once on one
 * machine): one builds, the others wait for it and then use its build; a lock left by a killed set-up is
 * taken over; a progress line is printed while the build runs. The build is a fake `go` on PATH that
 * stands in for the module download and the compiler: `go build` writes a fake `pulumi` (that prints
 * v3.259.0 for `version`) or a fake language host, and blocks until the test opens a gate, so that each
 * step happens when the test says and never by timing.
 */
import { expect } from "chai";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { waitFor } from "../support/waitFor";

const repoRoot = path.resolve(__dirname, "../..");
const VERSION = "3.259.0";
const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
/** Long enough for a loaded machine to start a shell script; it only bounds a failing test. */
const LIMIT_MS = 30_000;

/**
 * A `go` that answers the commands install-pulumi.sh runs. Every `go build` appends `build <package>`
 * to $FAKE_GO_LOG, waits until the file $FAKE_GO_GATE exists, then writes its output.
 */
const FAKE_GO = `#!/usr/bin/env bash
set -euo pipefail
mods="$FAKE_GO_ROOT/mods"
mkdir -p "$mods"
case "$1 \${2:-}" in
  "env GOVERSION") echo go1.24.0 ;;
  "env GOSUMDB") echo "\${GOSUMDB:-sum.golang.org}" ;;
  "env "*) echo "\${!2:-}" ;;
  "mod download")
    module="\${!#}"
    printf 'module %s\\n\\ngo 1.24\\n' "\${module%@*}" >"$mods/go.mod"
    printf '{"Version":"v${VERSION}","Time":"2026-11-01T10:00:00Z"}\\n' >"$mods/info"
    printf '{\\n\\t"Path": "%s",\\n\\t"Info": "%s",\\n\\t"GoMod": "%s",\\n\\t"Hash": "h1:0123456789abcdef"\\n}\\n' \\
      "\${module%@*}" "$mods/info" "$mods/go.mod"
    ;;
  "mod edit") cat "\${!#}" ;;
  "mod tidy") ;;
  "build "*)
    shift
    out="" pkg="\${!#}"
    while [ $# -gt 0 ]; do
      if [ "$1" = -o ]; then out="$2"; shift; fi
      shift
    done
    echo "build $pkg" >>"$FAKE_GO_LOG"
    while [ ! -e "$FAKE_GO_GATE" ]; do sleep 0.05; done
    if [ "$pkg" = "${CLI_PACKAGE}" ]; then
      printf '#!/bin/sh\\n[ "$1" = version ] && echo v${VERSION}\\nexit 0\\n' >"$out"
    else
      printf '#!/bin/sh\\necho fake language host\\n' >"$out"
    fi
    chmod +x "$out"
    ;;
  *) echo "fake go: unexpected command: $*" >&2; exit 2 ;;
esac
`;

interface SetUp {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

describe("scripts/install-pulumi.sh: one CLI build at a time per cache", function () {
  this.timeout(4 * LIMIT_MS);
  let scratch: string;
  let env: NodeJS.ProcessEnv;
  let cache: string;
  let gate: string;
  let goLog: string;
  const started: SetUp[] = [];

  /** A clone of its own: the scripts and a package.json (its .tools/bin is where the CLI is linked). */
  function clone(name: string): string {
    const dir = path.join(scratch, name);
    mkdirSync(path.join(dir, "scripts"), { recursive: true });
    for (const script of ["install-pulumi.sh", "go-build.sh", "build-lock.sh"]) {
      copyFileSync(path.join(repoRoot, "scripts", script), path.join(dir, "scripts", script));
    }
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ devDependencies: { "@pulumi/pulumi": VERSION } }),
    );
    return dir;
  }

  function setUp(cloneDir: string): SetUp {
    // A process group of its own, so that a test can kill the set-up with everything it started.
    const child = spawn("bash", [path.join(cloneDir, "scripts/install-pulumi.sh")], {
      cwd: cloneDir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const chunks: string[] = [];
    child.stdout.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
    // "close": the script and every process holding its output (a progress ticker) have ended.
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    const run = { child, output: () => chunks.join(""), exited };
    started.push(run);
    return run;
  }

  function builds(): string[] {
    return existsSync(goLog) ? readFileSync(goLog, "utf8").trim().split("\n") : [];
  }

  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-install-pulumi-"));
    cache = path.join(scratch, "cache");
    gate = path.join(scratch, "gate");
    goLog = path.join(scratch, "go.log");
    const fakeBin = path.join(scratch, "fake-bin");
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, "go"), FAKE_GO);
    chmodSync(path.join(fakeBin, "go"), 0o755);
    env = {
      // No other pulumi or go than the fake ones: the system's tools only.
      PATH: `${fakeBin}:/usr/bin:/bin`,
      HOME: path.join(scratch, "home"),
      PULUMI_CODESEC_CACHE: cache,
      PULUMI_VERSION: VERSION,
      PULUMI_CODESEC_PROGRESS_SECONDS: "1",
      FAKE_GO_ROOT: path.join(scratch, "go"),
      FAKE_GO_LOG: goLog,
      FAKE_GO_GATE: gate,
    };
    const found = spawnSync("bash", ["-c", "command -v pulumi || true"], { env, encoding: "utf8" }).stdout;
    expect(found.trim(), "a pulumi on the system's PATH would be used instead of a build").to.equal("");
  });

  afterEach(async () => {
    for (const run of started.splice(0)) {
      if (run.child.exitCode === null && run.child.signalCode === null)
        process.kill(-run.child.pid!, "SIGKILL");
      await run.exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it("two set-ups at once: the first builds, the second waits for it and uses its build", async () => {
    const [a, b] = [clone("clone-a"), clone("clone-b")];
    const first = setUp(a);
    await waitFor(
      "the first set-up's build",
      () => first.output().includes(`compiling ${CLI_PACKAGE}`),
      LIMIT_MS,
    );
    const second = setUp(b);
    await waitFor("the second set-up to wait", () => second.output().includes("waiting for it"), LIMIT_MS);
    expect(second.output()).to.include(`another set-up (pid ${first.child.pid}) is building in ${cache}`);
    await waitFor(
      "a progress line of the build",
      () => /still compiling .*cmd\/pulumi/.test(first.output()),
      LIMIT_MS,
    );

    writeFileSync(gate, "");
    const [firstCode, secondCode] = await Promise.all([first.exited, second.exited]);
    expect(firstCode, first.output()).to.equal(0);
    expect(secondCode, second.output()).to.equal(0);
    expect(builds(), "one build of each binary, by the first set-up").to.deep.equal([
      `build ${CLI_PACKAGE}`,
      "build github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3",
    ]);
    expect(second.output()).to.include(`cached pulumi v${VERSION}`);

    const bin = path.join(cache, `pulumi-v${VERSION}`, "bin");
    for (const dir of [a, b]) {
      const linked = path.join(dir, ".tools/bin/pulumi");
      expect(realpathSync(linked)).to.equal(realpathSync(path.join(bin, "pulumi")));
      expect(spawnSync(linked, ["version"], { encoding: "utf8" }).stdout.trim()).to.equal(`v${VERSION}`);
    }
    expect(
      readdirSync(bin).filter((name) => name.includes(".tmp")),
      "half-built files left",
    ).to.deep.equal([]);
    expect(
      readdirSync(cache).filter((name) => name.includes("lock")),
      "the lock is released",
    ).to.deep.equal([]);
  });

  it("a lock left by a killed set-up is taken over", async () => {
    const killed = setUp(clone("clone-a"));
    await waitFor("the build", () => killed.output().includes(`compiling ${CLI_PACKAGE}`), LIMIT_MS);
    process.kill(-killed.child.pid!, "SIGKILL");
    await killed.exited;
    expect(
      readdirSync(cache).filter((name) => name.includes("lock")),
      "the killed set-up left its lock",
    ).to.have.length(1);

    writeFileSync(gate, "");
    const next = setUp(clone("clone-b"));
    const code = await next.exited;
    expect(code, next.output()).to.equal(0);
    expect(next.output()).to.include(
      `taking over the build lock of set-up ${killed.child.pid}, which is no longer running`,
    );
    expect(next.output()).to.include(`built ${path.join(cache, `pulumi-v${VERSION}`, "bin", "pulumi")}`);
    expect(readdirSync(cache).filter((name) => name.includes("lock"))).to.deep.equal([]);
  });

  it("a lock whose pid the system has since given to another program is taken over", async () => {
    // The lock as a set-up leaves it (see acquire_build_lock), naming a running process that is no set-up.
    const other = spawn("sleep", ["600"], { stdio: "ignore" });
    try {
      mkdirSync(cache, { recursive: true });
      symlinkSync(String(other.pid), path.join(cache, ".build-lock.pid"));
      writeFileSync(gate, "");
      const next = setUp(clone("clone-a"));
      const code = await next.exited;
      expect(code, next.output()).to.equal(0);
      expect(next.output()).to.include(`taking over the build lock of set-up ${other.pid}`);
    } finally {
      other.kill("SIGKILL");
    }
  });
});
