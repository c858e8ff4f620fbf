/**
 * scripts/setup-node.sh reuses .tools/bin/node only while its binary has the sha256 recorded at its
 * install, and says which case it met: no record at all, or a binary changed since. Run in a copy of the
 * scripts with this process's node as both .tools/bin/node and the machine's (no download).
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");
const node = realpathSync(process.execPath);

describe("scripts/setup-node.sh: the recorded digest of .tools/bin/node", function () {
  this.timeout(60_000);
  let root: string;
  let record: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "codesec-setup-node-"));
    mkdirSync(path.join(root, "scripts"));
    for (const file of ["setup-node.sh", "sha256.sh"]) {
      copyFileSync(path.join(repoRoot, "scripts", file), path.join(root, "scripts", file));
    }
    mkdirSync(path.join(root, ".tools/bin"), { recursive: true });
    mkdirSync(path.join(root, ".tools/node"), { recursive: true });
    mkdirSync(path.join(root, "machine"));
    symlinkSync(node, path.join(root, ".tools/bin/node"));
    symlinkSync(node, path.join(root, "machine/node"));
    record = path.join(root, ".tools/node/installed.sha256");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function setup() {
    const run = spawnSync("bash", [path.join(root, "scripts/setup-node.sh")], {
      encoding: "utf8",
      env: { PATH: `${path.join(root, "machine")}:/usr/bin:/bin`, HOME: root },
    });
    return { status: run.status, output: run.stdout + run.stderr };
  }

  it("reuses .tools/bin/node whose binary has the recorded digest", () => {
    writeFileSync(record, `${createHash("sha256").update(readFileSync(node)).digest("hex")}\n`);
    const run = setup();
    expect(run.status, run.output).to.equal(0);
    expect(run.output).to.include(`using ${process.version} from .tools/bin`);
    expect(existsSync(path.join(root, ".tools/bin/node"))).to.equal(true);
  });

  it("says there is no record, removes .tools/bin/node and falls back to the machine's node", () => {
    const run = setup();
    expect(run.status, run.output).to.equal(0);
    expect(run.output).to.include(".tools/bin/node has no digest recorded");
    expect(run.output).to.not.include("changed since its install");
    expect(run.output).to.include(`using the machine's node ${process.version}`);
    expect(existsSync(path.join(root, ".tools/bin/node"))).to.equal(false);
  });

  it("says the binary changed when the digest differs from the record", () => {
    writeFileSync(record, `${"0".repeat(64)}\n`);
    const run = setup();
    expect(run.status, run.output).to.equal(0);
    expect(run.output).to.include("changed since its install (its sha256 differs from");
    expect(run.output).to.not.include("no digest recorded");
    expect(existsSync(path.join(root, ".tools/bin/node"))).to.equal(false);
  });
});
