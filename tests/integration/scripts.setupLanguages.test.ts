/**
 * scripts/setup-languages.sh: the language hosts are built only when a language is asked for, from the
 * sdk/v3 releases that still hold them as packages, into the CLI's cache, once (a second set-up uses the
 * build), with the Go checksum database left on. The build is a fake `go` on PATH that stands in for the
 * module download and the compiler and records what it was asked, with the environment that matters.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
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
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");
const VERSION = "3.259.0";
const GO_HOST = "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go";

/**
 * A `go` for setup-languages.sh. `go mod download -json <module>@<version>` answers with a module folder
 * whose go.mod pins golang.org/x/text (as sdk/v3's does); every `go build` and `go install` appends
 * `build <package>` (`install <module>@<version>`) and the checksum settings it ran with to $FAKE_GO_LOG,
 * then writes an executable.
 */
const FAKE_GO = `#!/usr/bin/env bash
set -euo pipefail
case "$1 \${2:-}" in
  "mod download")
    module="\${!#}"
    dir="$FAKE_GO_ROOT/\${module//\\//_}"
    mkdir -p "$dir"
    printf 'module %s\\n\\ngo 1.18\\n\\nreplace golang.org/x/text => golang.org/x/text v0.3.6\\n' "\${module%@*}" >"$dir/go.mod"
    printf '{\\n\\t"Path": "%s",\\n\\t"Version": "%s",\\n\\t"Dir": "%s",\\n\\t"GoMod": "%s"\\n}\\n' \\
      "\${module%@*}" "\${module#*@}" "$dir" "$dir/go.mod"
    ;;
  "mod edit") cat "\${!#}" ;;
  "mod tidy") ;;
  "install "*)
    echo "install \${!#} GOSUMDB=\${GOSUMDB-unset} GONOSUMDB=\${GONOSUMDB-unset} GOFLAGS=\${GOFLAGS-}" >>"$FAKE_GO_LOG"
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
    echo "build $pkg GOSUMDB=\${GOSUMDB-unset} GONOSUMDB=\${GONOSUMDB-unset} GOFLAGS=\${GOFLAGS-}" >>"$FAKE_GO_LOG"
    printf '#!/bin/sh\\necho fake language host\\n' >"$out"
    chmod +x "$out"
    ;;
  *) echo "fake go: unexpected command: $*" >&2; exit 2 ;;
esac
`;

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
    for (const script of ["setup-languages.sh", "build-lock.sh"]) {
      copyFileSync(path.join(repoRoot, "scripts", script), path.join(clone, "scripts", script));
    }
    cache = path.join(scratch, "cache");
    const bin = path.join(cache, `pulumi-v${VERSION}`, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "pulumi"), "#!/bin/sh\necho v3.259.0\n");
    chmodSync(path.join(bin, "pulumi"), 0o755);
    goLog = path.join(scratch, "go.log");
    const fakeBin = path.join(scratch, "fake-bin");
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, "go"), FAKE_GO);
    chmodSync(path.join(fakeBin, "go"), 0o755);
    // The system's tools and the fake go only; no CI, no CODESEC_LANGUAGES, no GOFLAGS from this process.
    env = {
      PATH: `${fakeBin}:/usr/bin:/bin`,
      HOME: path.join(scratch, "home"),
      PULUMI_CODESEC_CACHE: cache,
      PULUMI_VERSION: VERSION,
      FAKE_GO_ROOT: path.join(scratch, "go"),
      FAKE_GO_LOG: goLog,
    };
  });

  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it("asked for nothing (the demo's set-up): builds nothing and says nothing", () => {
    const { status, output } = setUp();
    expect([status, output]).to.deep.equal([0, ""]);
    expect(builds()).to.deep.equal([]);
    expect(existsSync(path.join(clone, ".tools"))).to.equal(false);
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
    expect(builds()).to.deep.equal([`build ${GO_HOST} GOSUMDB=unset GONOSUMDB=unset GOFLAGS=-mod=mod`]);
    const wrapper = readFileSync(
      path.join(cache, `pulumi-v${VERSION}`, "src/pulumi-language-go/go.mod"),
      "utf8",
    );
    expect(wrapper)
      .to.include("require github.com/pulumi/pulumi/sdk/v3 v3.66.0")
      .and.include("replace golang.org/x/text => golang.org/x/text v0.3.6")
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

  it("yaml: pulumi-language-yaml go-installed from pulumi-yaml v1.25.0 with its own requirements", () => {
    const { status, output } = setUp("--languages", "yaml");
    expect(status, output).to.equal(0);
    expect(builds()).to.deep.equal([
      "install github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v1.25.0 GOSUMDB=unset GONOSUMDB=unset GOFLAGS=-mod=readonly",
    ]);
    const host = path.join(cache, `pulumi-v${VERSION}`, "bin/pulumi-language-yaml");
    expect(realpathSync(path.join(clone, ".tools/bin/pulumi-language-yaml"))).to.equal(realpathSync(host));
    expect(readdirSync(path.dirname(host)).filter((name) => name.startsWith(".gobin"))).to.deep.equal([]);
  });
});
