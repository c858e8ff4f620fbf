/**
 * The digest a bench records and a release compares (scripts/measuredSources.ts) covers what changes a
 * figure and nothing that does not: the sources the bench runs, the tools' pins, not prose or results.
 */
import { expect } from "chai";
import { measuredFiles } from "../../scripts/measuredSources";
import { hashedInputName } from "../../scripts/plugin-release";

describe("the measured sources' digest", () => {
  let files: string[];
  before(() => {
    files = measuredFiles();
  });

  for (const file of [
    "provider/native/main.ts",
    "sdk/nodejs/index.ts",
    "emulator/package.json",
    "policy/package.json",
    "bench/run.ts",
    "bench/programs/smallStack/index.js",
    "tsconfig.json",
    "package-lock.json",
    "scripts/setup-node.sh",
    "scripts/install-pulumi.sh",
  ]) {
    it(`covers ${file}`, () => expect(files).to.include(file));
  }

  for (const file of [
    "provider/functions/getBranch.md",
    "provider/resources/scmApp/docs.md",
    "provider/resources/scmApp/examples/main.pp",
    "provider/examples/readme.pp",
    "bench/results.json",
  ]) {
    it(`leaves out ${file}`, () => expect(files).to.not.include(file));
  }

  it("leaves out every markdown file", () => {
    expect(files.filter((file) => file.endsWith(".md"))).to.deep.equal([]);
  });

  it("names a bundle input by its path in the clone, or in node_modules when reached through a link", () => {
    expect(hashedInputName("provider/native/main.ts")).to.equal("provider/native/main.ts");
    expect(hashedInputName("node_modules/@grpc/grpc-js/build/src/index.js")).to.equal(
      "node_modules/@grpc/grpc-js/build/src/index.js",
    );
    expect(hashedInputName("../../work/clone/node_modules/@grpc/grpc-js/build/src/index.js")).to.equal(
      "node_modules/@grpc/grpc-js/build/src/index.js",
    );
    expect(() => hashedInputName("../elsewhere/a.ts")).to.throw("outside the clone and outside node_modules");
  });
});
