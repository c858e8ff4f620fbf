/**
 * scripts/install-actionlint.sh builds actionlint through the Go module proxy with the checksum database
 * on, as every Go build of the set-up does (go-build.sh's require_checksum_db): the variables that would
 * exempt modules from it are undone, and a `go env -w` setting of them is refused before anything is
 * fetched. `go` is a stand-in on PATH that logs each `go install` with the settings it ran with.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");

/** `go env NAME...` as Go answers (the variable, else $FAKE_GO_ENV's line); `go install` logs and builds. */
const FAKE_GO = `#!/usr/bin/env bash
set -euo pipefail
case "$1" in
  env)
    for name in "\${@:2}"; do
      case "$name" in
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
  install)
    echo "install \${!#} GOSUMDB=\${GOSUMDB-unset} GONOSUMDB=\${GONOSUMDB-unset} GOPRIVATE=\${GOPRIVATE-unset} GOINSECURE=\${GOINSECURE-unset} GOFLAGS=\${GOFLAGS-}" >>"$FAKE_GO_LOG"
    mkdir -p "$GOBIN" && printf '#!/bin/sh\\necho actionlint\\n' >"$GOBIN/actionlint" && chmod +x "$GOBIN/actionlint"
    ;;
  *) echo "fake go: unexpected command: $*" >&2; exit 2 ;;
esac
`;

describe("scripts/install-actionlint.sh: the checksum database stays on", function () {
  this.timeout(30_000);
  let scratch: string;
  let clone: string;
  let goLog: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-install-actionlint-"));
    clone = path.join(scratch, "clone");
    mkdirSync(path.join(clone, "scripts"), { recursive: true });
    for (const script of ["install-actionlint.sh", "go-build.sh", "build-lock.sh", "sha256.sh"]) {
      copyFileSync(path.join(repoRoot, "scripts", script), path.join(clone, "scripts", script));
    }
    const fakeBin = path.join(scratch, "bin");
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, "go"), FAKE_GO, { mode: 0o755 });
    goLog = path.join(scratch, "go.log");
    // Every variable that would let a module skip the checksum database, or be fetched insecurely.
    env = {
      PATH: `${fakeBin}:/usr/bin:/bin`,
      HOME: scratch,
      PULUMI_CODESEC_CACHE: path.join(scratch, "cache"),
      FAKE_GO_LOG: goLog,
      GOSUMDB: "off",
      GONOSUMDB: "*",
      GOPRIVATE: "*",
      GOINSECURE: "*",
    };
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  function run() {
    const result = spawnSync("bash", [path.join(clone, "scripts/install-actionlint.sh")], {
      cwd: clone,
      env,
      encoding: "utf8",
    });
    const installs = existsSync(goLog) ? readFileSync(goLog, "utf8").trim().split("\n") : [];
    return { status: result.status, output: `${result.stdout}${result.stderr}`, installs };
  }

  it("installs with the public checksum database whatever the environment says", () => {
    const { status, output, installs } = run();
    expect(status, output).to.equal(0);
    expect(installs).to.deep.equal([
      "install github.com/rhysd/actionlint/cmd/actionlint@v1.7.7 GOSUMDB=sum.golang.org GONOSUMDB=unset " +
        "GOPRIVATE=unset GOINSECURE=unset GOFLAGS=-mod=mod",
    ]);
    expect(existsSync(path.join(clone, ".tools/bin/actionlint"))).to.equal(true);
  });

  it("builds again a cached actionlint that no longer has the digest recorded when it was built", () => {
    expect(run().status).to.equal(0);
    const cached = path.join(scratch, "cache/actionlint-v1.7.7/actionlint");
    const built = readFileSync(cached, "utf8");
    writeFileSync(cached, "#!/bin/sh\necho not actionlint\n");
    const again = run();
    expect(again.status, again.output).to.equal(0);
    expect(again.output).to.match(
      /the cached actionlint changed since it was built \(its sha256 differs from [^)]+\): building it again/,
    );
    expect(again.installs, "built again").to.have.length(2);
    expect(readFileSync(cached, "utf8")).to.equal(built);
    // Intact, it is kept: no third build.
    expect(run().installs).to.have.length(2);
  });

  it("refuses a `go env -w` setting that exempts modules from it, fetching nothing", () => {
    const goEnv = path.join(scratch, "go.env");
    writeFileSync(goEnv, "GOINSECURE=*\n");
    env.FAKE_GO_ENV = goEnv;
    const { status, output, installs } = run();
    expect(status).to.equal(1);
    expect(output)
      .to.include(`Go's settings (${goEnv}) have GOINSECURE=*`)
      .and.include("go env -u GOINSECURE");
    expect(installs).to.deep.equal([]);
    expect(existsSync(path.join(clone, ".tools/bin/actionlint"))).to.equal(false);
  });
});
