/**
 * The digest a bench records and a release compares (scripts/measuredSources.ts) depends on the sources,
 * not on where the clone is: a copy of the tree at another path, and this clone, give one digest.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { measuredSourcesDigest } from "../../scripts/measuredSources";
import { committedCopy } from "../support/committedCopy";

/** The digest scripts/measuredSources.ts prints in the clone at `dir`. */
function digestIn(dir: string): string {
  const run = spawnSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(dir, "scripts/measuredSources.ts")],
    { cwd: dir, encoding: "utf8", timeout: 120_000 },
  );
  expect(run.status, run.stderr).to.equal(0);
  return run.stdout.trim();
}

describe("the measured sources' digest at different clone paths", function () {
  this.timeout(300_000);
  let work: string;

  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "codesec-measured-"));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("is the same in a copy at another path, of another depth and name, and in this clone", () => {
    const copy = path.join(work, "elsewhere", "deeper", "b");
    committedCopy(copy);
    const digest = digestIn(copy);
    expect(digest).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(measuredSourcesDigest()).to.equal(digest);
  });
});
