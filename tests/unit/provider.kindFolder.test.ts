/**
 * A resource kind's folder under provider/resources (`UserRole` -> `userRole`) is one rule (kindFolder):
 * the kind's hand-written files are there, and the docs, the docs examples' layout and the generated
 * dynamic package name the folder through it. The generated class and entry module are apart, under
 * provider/generated/, named after the kind (the short stub's entry path: provider.stub.test.ts).
 */
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { kindFolder } from "../../provider/resources/kindFolder";
import { RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { docEntries } from "../../scripts/docs";
import { ownerExamplesSource } from "../../scripts/docsExamples";
import {
  dynamicPackageFiles,
  packageManifestText,
  resourceExample,
} from "../../scripts/typescript/dynamicPackage";

const root = path.resolve(__dirname, "../..");

describe("a resource kind's folder", () => {
  it("is the kind's name with a lower-case first letter", () => {
    expect(kindFolder("UserRole")).to.equal("userRole");
    expect(kindFolder("ScmWebhookSubscription")).to.equal("scmWebhookSubscription");
  });

  it("holds every kind's definition and docs, and no generated file: those are under provider/generated/", () => {
    for (const kind of RESOURCE_KIND_NAMES) {
      const folder = `provider/resources/${kindFolder(kind)}`;
      for (const file of ["definition.ts", "docs.md"]) {
        expect(existsSync(path.join(root, folder, file)), `${folder}/${file}`).to.equal(true);
      }
      for (const file of ["resource.ts", "engineEntry.ts"]) {
        expect(existsSync(path.join(root, folder, file)), `${folder}/${file}`).to.equal(false);
      }
      for (const file of [`resources/${kind}.ts`, `engineEntries/${kind}.ts`]) {
        expect(existsSync(path.join(root, "provider/generated", file)), file).to.equal(true);
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
      expect(generated, kind).to.include(`provider/generated/resources/${kind}.ts`);
      expect(generated, kind).to.include(`provider/generated/engineEntries/${kind}.ts`);
    }
  });

  it("has one example, its PCL source, whose generated TypeScript is the class's TSDoc example", () => {
    const generated = dynamicPackageFiles();
    for (const kind of RESOURCE_KIND_NAMES) {
      const folder = `provider/resources/${kindFolder(kind)}`;
      expect(readdirSync(path.join(root, folder, "examples")), kind).to.deep.equal(["main.pp"]);
      const program = readFileSync(
        path.join(root, `docs/examples/resources/${kind}/main/typescript/index.ts`),
        "utf8",
      );
      const example = resourceExample(kind);
      expect(example, kind)
        .to.include(`new codesec.${kind}(`)
        .and.not.match(/^import /m);
      // The same statements, indented by two spaces instead of four.
      const statements = (code: string) =>
        code
          .replace(/^import .*\n/gm, "")
          .replace(/\s+/g, " ")
          .trim();
      expect(statements(example), kind).to.equal(statements(program));
      expect(generated.get(`provider/generated/resources/${kind}.ts`), kind).to.include(
        example
          .split("\n")
          .map((line) => ` * ${line}`.trimEnd())
          .join("\n"),
      );
    }
  });

  it("holding a definition is a kind of the registry, and every kind of the registry has one", () => {
    const folders = readdirSync(path.join(root, "provider/resources"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .filter((entry) => existsSync(path.join(root, "provider/resources", entry.name, "definition.ts")))
      .map((entry) => entry.name);
    expect(folders.sort()).to.deep.equal(RESOURCE_KIND_NAMES.map(kindFolder).sort());
  });

  it("gives package.json the registry's ./dynamic/<Kind> exports, in its order, and drops one of no kind", () => {
    const entry = (file: string) => ({ types: `./${file}.d.ts`, default: `./${file}.js` });
    const written = {
      name: "pulumi-codesec",
      exports: {
        ".": entry("dist/provider/index"),
        "./dynamic": entry("dist/provider/dynamic/index"),
        "./dynamic/Gone": entry("dist/provider/resources/gone/engineEntry"),
        "./package.json": "./package.json",
      },
      engines: { node: ">=22" },
    };
    const derived = JSON.parse(packageManifestText(JSON.stringify(written))) as typeof written;
    expect(Object.keys(derived.exports)).to.deep.equal([
      ".",
      "./dynamic",
      ...RESOURCE_KIND_NAMES.map((kind) => `./dynamic/${kind}`),
      "./package.json",
    ]);
    expect(derived.exports).to.deep.include({
      "./dynamic/ScmApp": entry("dist/provider/generated/engineEntries/ScmApp"),
    });
    expect(derived.engines).to.deep.equal(written.engines);
    // The committed package.json is what generation writes (lint: `scripts/generate.ts --check`).
    const committed = readFileSync(path.join(root, "package.json"), "utf8");
    expect(packageManifestText(committed)).to.equal(committed);
  });
});
