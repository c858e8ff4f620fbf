/**
 * A release rehearsal whose set-up fails in a scratch folder of a given parent (the bench's, under the
 * project's cache) removes that folder: nothing sweeps a folder outside the system's temporary folder.
 */
import { expect } from "chai";
import { readdirSync } from "node:fs";
import * as path from "node:path";
import { scratchDir } from "../e2e/support/harness";
import { startRehearsal } from "../e2e/support/rehearsal";

describe("a release rehearsal whose set-up fails", function () {
  this.timeout(60_000);

  it("removes its scratch folder from the parent it was given", async () => {
    const parent = scratchDir("failed-set-up");
    const savedPath = process.env.PATH;
    // No Pulumi CLI on PATH: the set-up fails early, once its folder is made.
    process.env.PATH = "/usr/bin:/bin";
    let failure: unknown;
    try {
      await startRehearsal({ builtCopy: path.join(parent, "no-copy"), scratchParent: parent });
    } catch (error) {
      failure = error;
    } finally {
      process.env.PATH = savedPath;
    }
    expect(failure, "the set-up's failure").to.be.instanceOf(Error);
    expect(readdirSync(parent), "what the failed set-up left in its parent").to.deep.equal([]);
  });
});
