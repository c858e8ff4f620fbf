/**
 * scripts/setup-node.sh, when it installs Node: the exact release it names, from the npm registry's
 * per-platform package, checked against the sha512 recorded in the script before anything is unpacked.
 * `npm` is a stand-in on PATH that logs its arguments and answers `npm pack` with a tarball made here, so
 * nothing is downloaded; there is no `node` on PATH, as on a machine without one.
 */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
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
const PLATFORM_PACKAGE = `node-linux-${os.arch() === "arm64" ? "arm64" : "x64"}`;

/** The release setup-node.sh pins, as it states it (`node_release=...`). */
function pinnedRelease(): string {
  const script = readFileSync(path.join(repoRoot, "scripts/setup-node.sh"), "utf8");
  const release = /^node_release=(\d+\.\d+\.\d+)$/m.exec(script);
  if (!release) throw new Error("scripts/setup-node.sh names no node_release=X.Y.Z");
  return release[1];
}

/** `npm pack <spec> --pack-destination <dir>`: copies $FAKE_TARBALL there, printing its name as npm does. */
const FAKE_NPM = `#!/bin/sh
echo "$*" >>"$FAKE_NPM_LOG"
[ "$1" = pack ] || { echo "fake npm: unexpected command: $*" >&2; exit 2; }
dest=""
while [ $# -gt 0 ]; do
  if [ "$1" = --pack-destination ]; then dest=$2; fi
  shift
done
cp "$FAKE_TARBALL" "$dest/node-package.tgz"
echo node-package.tgz
`;

/** A Node release's package whose bin/node is a stand-in answering as Node `version` would. */
function makeTarball(dir: string, version: string): { file: string; integrity: string } {
  const packageDir = path.join(dir, "package/bin");
  mkdirSync(packageDir, { recursive: true });
  const node = path.join(packageDir, "node");
  writeFileSync(
    node,
    `#!/bin/sh\ncase "$1" in --version) echo v${version} ;; -p) echo ${version.split(".")[0]} ;; esac\nexit 0\n`,
  );
  chmodSync(node, 0o755);
  const file = path.join(dir, "node.tgz");
  const tar = spawnSync("tar", ["-czf", file, "-C", dir, "package"]);
  expect(tar.status).to.equal(0);
  return { file, integrity: `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}` };
}

describe("scripts/setup-node.sh: an exact Node release, checked against its recorded integrity", function () {
  this.timeout(30_000);
  let scratch: string;
  let clone: string;
  let npmLog: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-setup-node-"));
    clone = path.join(scratch, "clone");
    mkdirSync(path.join(clone, "scripts"), { recursive: true });
    for (const script of ["setup-node.sh", "sha256.sh"]) {
      copyFileSync(path.join(repoRoot, "scripts", script), path.join(clone, "scripts", script));
    }
    const fakeBin = path.join(scratch, "bin");
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, "npm"), FAKE_NPM, { mode: 0o755 });
    npmLog = path.join(scratch, "npm.log");
    // No node on PATH: the script must install one.
    env = { PATH: `${fakeBin}:/usr/bin:/bin`, HOME: scratch, FAKE_NPM_LOG: npmLog };
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  function run(extra: NodeJS.ProcessEnv = {}) {
    const result = spawnSync("bash", [path.join(clone, "scripts/setup-node.sh")], {
      cwd: clone,
      env: { ...env, ...extra },
      encoding: "utf8",
    });
    const calls = existsSync(npmLog) ? readFileSync(npmLog, "utf8").trim().split("\n") : [];
    return { status: result.status, output: `${result.stdout}${result.stderr}`, calls };
  }

  it("asks the registry for the exact pinned release, and refuses a package whose sha512 is not the recorded one", () => {
    const tarball = makeTarball(scratch, pinnedRelease());
    const { status, output, calls } = run({ FAKE_TARBALL: tarball.file });
    expect(calls).to.have.length(1);
    expect(calls[0]).to.match(
      new RegExp(`^pack ${PLATFORM_PACKAGE}@${pinnedRelease().replace(/\./g, "\\.")} `),
    );
    expect(status, output).to.equal(1);
    expect(output)
      .to.include(`${PLATFORM_PACKAGE}@${pinnedRelease()} does not match its recorded integrity`)
      .and.include(tarball.integrity);
    expect(existsSync(path.join(clone, ".tools/bin/node")), "no node installed").to.equal(false);
    expect(existsSync(path.join(clone, ".tools/node")), "nothing unpacked").to.equal(false);
  });

  it("installs a package whose sha512 is the recorded one (NODE_VERSION with its NODE_INTEGRITY)", () => {
    const tarball = makeTarball(scratch, "24.99.1");
    const { status, output, calls } = run({
      FAKE_TARBALL: tarball.file,
      NODE_VERSION: "24.99.1",
      NODE_INTEGRITY: tarball.integrity,
    });
    expect(status, output).to.equal(0);
    expect(calls[0]).to.match(new RegExp(`^pack ${PLATFORM_PACKAGE}@24\\.99\\.1 `));
    expect(output).to.include("installed v24.99.1 as .tools/bin/node");
    const installed = spawnSync(path.join(clone, ".tools/bin/node"), ["--version"], { encoding: "utf8" });
    expect(installed.stdout.trim()).to.equal("v24.99.1");
    // The next set-up keeps it: no second download.
    expect(run().calls).to.have.length(1);
  });

  it("reinstalls a .tools/bin/node whose binary no longer has the digest recorded at its install", () => {
    const tarball = makeTarball(scratch, "24.99.1");
    const pinned = { FAKE_TARBALL: tarball.file, NODE_VERSION: "24.99.1", NODE_INTEGRITY: tarball.integrity };
    expect(run(pinned).status).to.equal(0);
    const binary = path.join(clone, ".tools/node", `${PLATFORM_PACKAGE}`, "bin/node");
    const original = readFileSync(binary, "utf8");
    // Still a suitable node by its answers, but not the bytes that were checked.
    writeFileSync(binary, `${original}# changed after its install\n`);
    const again = run(pinned);
    expect(again.status, again.output).to.equal(0);
    expect(again.output).to.match(
      /\.tools\/bin\/node's binary \([^)]+\) changed since its install \(its sha256 differs from [^)]+\): not using it \(removed\)/,
    );
    expect(again.calls, "downloaded again").to.have.length(2);
    expect(readFileSync(binary, "utf8")).to.equal(original);
    // Intact, it is kept: no third download.
    expect(run(pinned).calls).to.have.length(2);
  });

  it("refuses NODE_VERSION without its NODE_INTEGRITY, and a version that is not exact", () => {
    const tarball = makeTarball(scratch, "24.99.1");
    const unchecked = run({ FAKE_TARBALL: tarball.file, NODE_VERSION: "24.99.1" });
    expect(unchecked.status).to.equal(1);
    expect(unchecked.output).to.include("NODE_VERSION=24.99.1 needs NODE_INTEGRITY");
    const range = run({ FAKE_TARBALL: tarball.file, NODE_VERSION: "24", NODE_INTEGRITY: tarball.integrity });
    expect(range.status).to.equal(1);
    expect(range.output).to.include("NODE_VERSION=24 is not an exact release");
    expect(range.calls, "nothing downloaded").to.deep.equal([]);
  });
});
