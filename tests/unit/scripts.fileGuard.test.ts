import { expect } from "chai";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardFile } from "../../scripts/fileGuard";

describe("the demo's stack file guard", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "codesec-guard-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("removes a file that did not exist before", () => {
    const file = join(dir, "Pulumi.demo.yaml");
    const restore = guardFile(file);
    writeFileSync(file, "config: {}\n");
    restore();
    expect(existsSync(file)).to.equal(false);
  });

  it("gives a file that was there before its own bytes back", () => {
    const file = join(dir, "Pulumi.demo.yaml");
    writeFileSync(file, "# someone's own stack settings\nconfig:\n  x: 1\n");
    const restore = guardFile(file);
    writeFileSync(file, "encryptionsalt: demo\n");
    restore();
    expect(readFileSync(file, "utf8")).to.equal("# someone's own stack settings\nconfig:\n  x: 1\n");
  });
});
