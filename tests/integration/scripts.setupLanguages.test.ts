/**
 * scripts/setup-languages.sh: the language hosts are built only when a language is asked for, from the
 * sdk/v3 releases that still hold them as packages, into the CLI's cache, once (a second set-up uses the
 * build), with the Go checksum database left on. The build is a fake `go` on PATH that stands in for the
 * module download and the compiler and records what it was asked, with the environment that matters.
 */
import { expect } from "chai";
import { spawn, spawnSync } from "node:child_process";
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
const GO_HOST = "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go";
const PYTHON_HOST = "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python";

/** The variables that would exempt modules from the checksum database, as the fake go logs them. */
const CHECKSUM_SETTINGS =
  "GOSUMDB=sum.golang.org GONOSUMDB=unset GONOSUMCHECK=unset GOPRIVATE=unset GOINSECURE=unset";

/**
 * A `go` for setup-languages.sh. `go mod download -json <module>@<version>` answers with a module folder
 * whose go.mod pins golang.org/x/text (as sdk/v3's does) and asks for Go 1.18 (pulumi-yaml's: 1.24.7);
 * `go env NAME` answers as Go does: the variable, else the line of $FAKE_GO_ENV (a `go env -w` file), with
 * GOVERSION $FAKE_GO_VERSION. Every `go build` and `go install` appends `build <package>`
 * (`install <module>@<version>`), the checksum settings and the toolchain it ran with to $FAKE_GO_LOG,
 * then writes an executable (a build first sleeps when $FAKE_GO_SLEEP is set).
 */
const FAKE_GO = `#!/usr/bin/env bash
set -euo pipefail
settings() {
  echo "GOSUMDB=\${GOSUMDB-unset} GONOSUMDB=\${GONOSUMDB-unset} GONOSUMCHECK=\${GONOSUMCHECK-unset}" \\
    "GOPRIVATE=\${GOPRIVATE-unset} GOINSECURE=\${GOINSECURE-unset} GOFLAGS=\${GOFLAGS-} GOTOOLCHAIN=\${GOTOOLCHAIN-unset}"
}
case "$1 \${2:-}" in
  "env "*)
    for name in "\${@:2}"; do
      case "$name" in
        GOVERSION) echo "\${FAKE_GO_VERSION:-go1.26.0}" ;;
        GOENV) echo "\${FAKE_GO_ENV:-/nonexistent/go/env}" ;;
        *)
          value="\${!name:-}"
          if [ -z "$value" ] && [ -f "\${FAKE_GO_ENV:-}" ]; then value="$(sed -n "s/^$name=//p" "$FAKE_GO_ENV")"; fi
          [ -n "$value" ] || [ "$name" != GOSUMDB ] || value=sum.golang.org
          echo "$value"
          ;;
      esac
    done
    ;;
  "mod download")
    module="\${!#}"
    dir="$FAKE_GO_ROOT/\${module//\\//_}"
    mkdir -p "$dir"
    gover=1.18
    case "$module" in github.com/pulumi/pulumi-yaml@*) gover=1.24.7 ;; esac
    printf 'module %s\\n\\ngo %s\\n\\nreplace golang.org/x/text => golang.org/x/text v0.3.6 // pinned\\n' "\${module%@*}" "$gover" >"$dir/go.mod"
    mkdir -p "$dir/python/cmd" && printf '#!/bin/sh\\n' >"$dir/python/cmd/pulumi-language-python-exec"
    printf '{\\n\\t"Path": "%s",\\n\\t"Version": "%s",\\n\\t"Dir": "%s",\\n\\t"GoMod": "%s"\\n}\\n' \\
      "\${module%@*}" "\${module#*@}" "$dir" "$dir/go.mod"
    ;;
  "mod edit") cat "\${!#}" ;;
  "mod tidy") ;;
  "install "*)
    echo "install \${!#} $(settings)" >>"$FAKE_GO_LOG"
    mkdir -p "$GOBIN"
    printf '#!/bin/sh\\necho fake language host\\n' >"$GOBIN/pulumi-language-yaml"
    chmod +x "$GOBIN/pulumi-language-yaml"
    ;;
  "build "*)
    shift
    out="" pkg="\${!#}"
    while [ $# -gt 0 ]; do
      if [ "$1" = -o ]; then out="$2"; shift; fi
      shift
    done
    echo "build $pkg $(settings)" >>"$FAKE_GO_LOG"
    if [ -n "\${FAKE_GO_SLEEP:-}" ]; then echo $$ >"$FAKE_GO_SLEEP"; exec sleep 600; fi
    [ -n "$out" ] || exit 0 # a compile into the build cache only
    printf '#!/bin/sh\\necho fake language host\\n' >"$out"
    chmod +x "$out"
    ;;
  *) echo "fake go: unexpected command: $*" >&2; exit 2 ;;
esac
`;

/**
 * A `python3` for the virtual environment: `-m venv DIR` makes DIR/bin/python (this script again), and
 * `-m pip ...` appends its arguments to $FAKE_PIP_LOG.
 */
const FAKE_PYTHON = `#!/bin/sh
case "$1 $2" in
  "-m venv") mkdir -p "$3/bin" && cp "$0" "$3/bin/python" ;;
  "-m pip") echo "$*" >>"$FAKE_PIP_LOG" ;;
  "--version ") echo "Python 3.12.0" ;;
esac
`;

/** A `pulumi` that prints its version. */
function fakeCli(file: string, version: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n[ "$1" = version ] && echo v${version}\nexit 0\n`);
  chmodSync(file, 0o755);
}

describe("scripts/setup-languages.sh: the Python, Go and YAML language hosts, only when asked for", function () {
  this.timeout(60_000);
  let scratch: string;
  let clone: string;
  let cache: string;
  let goLog: string;
  let env: NodeJS.ProcessEnv;

  function setUp(...args: string[]): { status: number | null; output: string } {
    const result = spawnSync("bash", [path.join(clone, "scripts/setup-languages.sh"), ...args], {
      cwd: clone,
      env,
      encoding: "utf8",
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  }

  function builds(): string[] {
    return existsSync(goLog) ? readFileSync(goLog, "utf8").trim().split("\n") : [];
  }

  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-setup-languages-"));
    clone = path.join(scratch, "clone");
    mkdirSync(path.join(clone, "scripts"), { recursive: true });
    for (const script of ["setup-languages.sh", "go-build.sh", "build-lock.sh"]) {
      copyFileSync(path.join(repoRoot, "scripts", script), path.join(clone, "scripts", script));
    }
    cache = path.join(scratch, "cache");
    // The CLI as install-pulumi.sh leaves its own build: in the cache, linked into the clone's .tools/bin.
    const cachedCli = path.join(cache, `pulumi-v${VERSION}`, "bin/pulumi");
    fakeCli(cachedCli, VERSION);
    mkdirSync(path.join(clone, ".tools/bin"), { recursive: true });
    symlinkSync(cachedCli, path.join(clone, ".tools/bin/pulumi"));
    goLog = path.join(scratch, "go.log");
    const fakeBin = path.join(scratch, "fake-bin");
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, "go"), FAKE_GO);
    chmodSync(path.join(fakeBin, "go"), 0o755);
    // The system's tools and the fake go only; no CI, no CODESEC_LANGUAGES, no GOFLAGS from this process;
    // and every variable that would let a module skip the checksum database, which the script must undo.
    env = {
      PATH: `${fakeBin}:/usr/bin:/bin`,
      HOME: path.join(scratch, "home"),
      PULUMI_CODESEC_CACHE: cache,
      FAKE_GO_ROOT: path.join(scratch, "go"),
      FAKE_GO_LOG: goLog,
      GOSUMDB: "off",
      GONOSUMDB: "*",
      GONOSUMCHECK: "1",
      GOPRIVATE: "*",
      GOINSECURE: "*",
      GOTOOLCHAIN: "auto",
    };
  });

  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  /** sdk/go's go.mod in the clone: the module the Go set-up compiles. */
  function copySdkGo(): void {
    mkdirSync(path.join(clone, "sdk/go"), { recursive: true });
    copyFileSync(path.join(repoRoot, "sdk/go/go.mod"), path.join(clone, "sdk/go/go.mod"));
  }

  it("asked for nothing (the demo's set-up): builds nothing and says nothing", () => {
    const { status, output } = setUp();
    expect([status, output]).to.deep.equal([0, ""]);
    expect(builds()).to.deep.equal([]);
    expect(readdirSync(path.join(clone, ".tools/bin"))).to.deep.equal(["pulumi"]);
  });

  it("an unknown language is refused, naming the ones there are", () => {
    const { status, output } = setUp("--languages", "go,dotnet");
    expect(status).to.equal(2);
    expect(output).to.include("unknown language 'dotnet' (python, go, yaml)");
    expect(builds()).to.deep.equal([]);
  });

  it("go: the host of sdk/v3@v3.66.0 into the CLI's cache, checksums on; a second set-up uses it", () => {
    const first = setUp("--languages", "go");
    expect(first.status, first.output).to.equal(0);
    expect(builds()).to.deep.equal([
      `build ${GO_HOST} ${CHECKSUM_SETTINGS} GOFLAGS=-mod=mod GOTOOLCHAIN=local`,
    ]);
    const wrapper = readFileSync(
      path.join(cache, `pulumi-v${VERSION}`, "src/pulumi-language-go/go.mod"),
      "utf8",
    );
    expect(wrapper)
      .to.include("require github.com/pulumi/pulumi/sdk/v3 v3.66.0")
      .and.include("replace golang.org/x/text => golang.org/x/text v0.3.6\n")
      .and.include(`tool ${GO_HOST}`);
    const host = path.join(cache, `pulumi-v${VERSION}`, "bin/pulumi-language-go");
    expect(realpathSync(path.join(clone, ".tools/bin/pulumi-language-go"))).to.equal(realpathSync(host));
    expect(readFileSync(`${host}.source`, "utf8").trim()).to.equal(`${GO_HOST}@v3.66.0`);

    // Another clone's set-up, or CODESEC_LANGUAGES instead of the flag: the cache's build, no second one.
    const second = spawnSync("bash", [path.join(clone, "scripts/setup-languages.sh")], {
      cwd: clone,
      env: { ...env, CODESEC_LANGUAGES: "go" },
      encoding: "utf8",
    });
    expect(second.status, second.stderr).to.equal(0);
    expect(second.stdout).to.include("cached pulumi-language-go");
    expect(builds()).to.have.length(1);
    expect(existsSync(path.join(cache, ".build-lock.pid")), "the lock is released").to.equal(false);
  });

  it("python: its host, the python-exec script and the virtual environment; nothing of Go's or YAML's", () => {
    const fakeBin = path.join(scratch, "fake-bin");
    writeFileSync(path.join(fakeBin, "python3"), FAKE_PYTHON, { mode: 0o755 });
    mkdirSync(path.join(clone, "sdk/python/pulumi_codesec"), { recursive: true });
    writeFileSync(path.join(clone, "sdk/python/pulumi_codesec/__init__.py"), "");
    copySdkGo();
    env.FAKE_PIP_LOG = path.join(scratch, "pip.log");
    const { status, output } = setUp("--languages", "python");
    expect(status, output).to.equal(0);
    expect(builds()).to.deep.equal([
      `build ${PYTHON_HOST} ${CHECKSUM_SETTINGS} GOFLAGS=-mod=mod GOTOOLCHAIN=local`,
    ]);
    expect(readdirSync(path.join(clone, ".tools/bin")).sort()).to.deep.equal([
      "pulumi",
      "pulumi-language-python",
      "pulumi-language-python-exec",
    ]);
    expect(readFileSync(env.FAKE_PIP_LOG, "utf8")).to.include(`pulumi==${VERSION}`);
    expect(output).to.not.include("sdk/go");
  });

  it("go: sdk/go compiled into Go's build cache, with its own go.mod read-only, and not vetted", () => {
    copySdkGo();
    const { status, output } = setUp("--languages", "go");
    expect(status, output).to.equal(0);
    expect(builds()).to.deep.equal([
      `build ${GO_HOST} ${CHECKSUM_SETTINGS} GOFLAGS=-mod=mod GOTOOLCHAIN=local`,
      `build ./... ${CHECKSUM_SETTINGS} GOFLAGS=-mod=readonly GOTOOLCHAIN=local`,
    ]);
    expect(output).to.include("sdk/go compiled").and.not.include("WARNING");
  });

  it("yaml: pulumi-language-yaml go-installed from pulumi-yaml v1.25.0 with its own requirements", () => {
    const { status, output } = setUp("--languages", "yaml");
    expect(status, output).to.equal(0);
    expect(builds()).to.deep.equal([
      `install github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v1.25.0 ${CHECKSUM_SETTINGS} GOFLAGS=-mod=readonly GOTOOLCHAIN=local`,
    ]);
    const host = path.join(cache, `pulumi-v${VERSION}`, "bin/pulumi-language-yaml");
    expect(realpathSync(path.join(clone, ".tools/bin/pulumi-language-yaml"))).to.equal(realpathSync(host));
    expect(readdirSync(path.dirname(host)).filter((name) => name.startsWith(".gobin"))).to.deep.equal([]);
  });

  it("a local Go older than a module asks for: Go fetches that toolchain (through the proxy, checksums on)", () => {
    env.FAKE_GO_VERSION = "go1.22.5";
    const { status, output } = setUp("--languages", "yaml,go");
    expect(status, output).to.equal(0);
    expect(builds()).to.deep.equal([
      // the wrapper module of the Go host asks for 1.24 (its `tool` directive); pulumi-yaml for 1.24.7
      `build ${GO_HOST} ${CHECKSUM_SETTINGS} GOFLAGS=-mod=mod GOTOOLCHAIN=go1.24`,
      `install github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v1.25.0 ${CHECKSUM_SETTINGS} GOFLAGS=-mod=readonly GOTOOLCHAIN=go1.24.7`,
    ]);
    expect(output).to.include("the local Go is 1.22.5: letting Go download go1.24.7");
  });

  it("a `go env -w` setting that exempts modules from the checksum database: refused, nothing built", () => {
    const goEnv = path.join(scratch, "go.env");
    writeFileSync(goEnv, "GOPRIVATE=github.com/pulumi\nGONOSUMDB=github.com/pulumi\n");
    env.FAKE_GO_ENV = goEnv;
    const { status, output } = setUp("--languages", "go");
    expect(status, output).to.equal(1);
    expect(output).to.include(`Go's settings (${goEnv}) have GONOSUMDB=github.com/pulumi`);
    expect(output).to.include("go env -u GONOSUMDB GOPRIVATE");
    expect(builds()).to.deep.equal([]);
  });

  it("an official CLI (install-pulumi.sh linked one found on PATH): its own hosts are linked, nothing built", () => {
    const official = path.join(scratch, "official/bin");
    fakeCli(path.join(official, "pulumi"), "3.260.1");
    for (const host of ["pulumi-language-go", "pulumi-language-yaml"]) {
      writeFileSync(path.join(official, host), "#!/bin/sh\n");
      chmodSync(path.join(official, host), 0o755);
    }
    rmSync(path.join(cache, `pulumi-v${VERSION}`), { recursive: true });
    rmSync(path.join(clone, ".tools/bin/pulumi"));
    symlinkSync(path.join(official, "pulumi"), path.join(clone, ".tools/bin/pulumi"));
    const { status, output } = setUp("--languages", "go,yaml");
    expect(status, output).to.equal(0);
    expect(builds()).to.deep.equal([]);
    for (const host of ["pulumi-language-go", "pulumi-language-yaml"]) {
      expect(realpathSync(path.join(clone, ".tools/bin", host))).to.equal(
        realpathSync(path.join(official, host)),
      );
    }
    expect(readdirSync(cache), "nothing in the cache").to.deep.equal([]);
  });

  it("a CLI on PATH without hosts (CODESEC_SKIP_PULUMI=1, nothing in .tools/bin): the missing ones are built for its version", () => {
    const elsewhere = path.join(scratch, "elsewhere/bin");
    fakeCli(path.join(elsewhere, "pulumi"), "3.260.1");
    rmSync(path.join(clone, ".tools"), { recursive: true });
    env.PATH = `${elsewhere}:${env.PATH}`;
    const { status, output } = setUp("--languages", "go");
    expect(status, output).to.equal(0);
    expect(builds()).to.have.length(1);
    const host = path.join(cache, "pulumi-v3.260.1/bin/pulumi-language-go");
    expect(realpathSync(path.join(clone, ".tools/bin/pulumi-language-go"))).to.equal(realpathSync(host));
  });

  it("TERM while compiling: exits 143 at once, stopping the compile and the progress line, and releases the lock", async () => {
    const sleeper = path.join(scratch, "go-build.pid");
    const child = spawn("bash", [path.join(clone, "scripts/setup-languages.sh"), "--languages", "go"], {
      cwd: clone,
      env: { ...env, FAKE_GO_SLEEP: sleeper, PULUMI_CODESEC_PROGRESS_SECONDS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // `close` comes once every holder of the output is gone: the script, the ticker and the compile.
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await waitFor("a progress line", () => output.includes("still compiling"), 30_000);
    const compilePid = Number(readFileSync(sleeper, "utf8"));
    child.kill("SIGTERM");
    // Before the traps stopped it, the compile (600 s) held the output open, far beyond this test's limit.
    expect(await closed, output).to.equal(143);
    // (a killed process lingers until its parent, or init, collects it)
    await waitFor("the compile to be stopped", () => !alive(compilePid));
    expect(existsSync(path.join(cache, ".build-lock.pid")), "the lock is released").to.equal(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
