/**
 * A resource kind's folder under provider/resources (`UserRole` -> `userRole`) is one rule (kindFolder):
 * the kind's files are there, and the docs, the docs examples' layout and the generated dynamic package
 * name the folder through it (the short stub's entry path: provider.stub.test.ts).
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { kindFolder } from "../../provider/resources/kindFolder";
import { RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { docEntries } from "../../scripts/docs";
import { ownerExamplesSource } from "../../scripts/docsExamples";
import { dynamicPackageFiles } from "../../scripts/typescript/dynamicPackage";

const root = path.resolve(__dirname, "../..");

describe("a resource kind's folder", () => {
  it("is the kind's name with a lower-case first letter", () => {
    expect(kindFolder("UserRole")).to.equal("userRole");
    expect(kindFolder("ScmWebhookSubscription")).to.equal("scmWebhookSubscription");
  });

  it("holds every kind's definition, docs, generated class and entry module", () => {
    for (const kind of RESOURCE_KIND_NAMES) {
      const folder = `provider/resources/${kindFolder(kind)}`;
      for (const file of ["definition.ts", "docs.md", "resource.ts", "engineEntry.ts"]) {
        expect(existsSync(path.join(root, folder, file)), `${folder}/${file}`).to.equal(true);
      }
    }
  });

  it("is where the docs, the docs examples and the generated dynamic package look", () => {
    const generated = [...dynamicPackageFiles().keys()];
    for (const kind of RESOURCE_KIND_NAMES) {
      const folder = `provider/resources/${kindFolder(kind)}`;
      const doc = docEntries().find((entry) => entry.target === `docs/resources/${kind}.md`);
      expect(doc?.source, kind).to.equal(`${folder}/docs.md`);
      expect(doc?.schemaFiles, kind).to.deep.equal([`${folder}/definition.ts`]);
      expect(ownerExamplesSource("resources", kind), kind).to.equal(`${folder}/examples`);
      expect(generated, kind).to.include(`${folder}/resource.ts`);
    }
  });
});
