/**
 * The resource and function reference is generated from the shapes (scripts/docs.ts): the committed docs
 * must be what the generator writes, and the lint check must catch a doc that drifted from its shape.
 */
import type { TSchema } from "@sinclair/typebox";
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as codesec from "../../provider";
import { docEntries, staleDocs } from "../../scripts/docs";
import { SCREENSHOT, SCREENSHOT_SOURCE } from "../../scripts/reviewScreenshot";
import { docsExamples, examplePrograms } from "../../scripts/docsExamples";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import type { FunctionDefinition } from "../../provider/functions/definition";
import { RESOURCE_DEFINITIONS } from "../../provider/resources/registry";
import { inputShape, outputShape, type ResourceDefinition } from "../../provider/resources/definition";

const root = path.resolve(__dirname, "../..");

/**
 * A scratch copy of what the generator reads and writes: every doc source and every generated doc, the
 * README, the screenshot of the PR comment with its digest, and the docs examples they inline (their PCL
 * sources and the programs generated from them).
 */
function copyOfDocs(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-docs-"));
  for (const entry of docEntries()) {
    for (const file of [entry.source, entry.target]) {
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(copy, file));
    }
  }
  fs.copyFileSync(path.join(root, "README.md"), path.join(copy, "README.md"));
  for (const file of [SCREENSHOT, SCREENSHOT_SOURCE])
    fs.copyFileSync(path.join(root, file), path.join(copy, file));
  for (const example of allDocsExamples()) {
    fs.cpSync(path.join(root, example.source), path.join(copy, example.source));
    fs.cpSync(path.join(root, example.target), path.join(copy, example.target), { recursive: true });
  }
  return copy;
}

function allDocsExamples() {
  return docsExamples(root);
}

function runCheck(repoRoot: string) {
  return spawnSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "scripts/docs.ts", "--check", "--root", repoRoot],
    { cwd: root, encoding: "utf8" },
  );
}

describe("generated reference docs", function () {
  this.timeout(60_000);

  it("the committed docs are what `npm run docs` writes", () => {
    expect(staleDocs(root)).to.deep.equal([]);
  });

  it("every resource kind and every exported function has a generated doc", () => {
    const targets = docEntries().map((entry) => entry.target);
    for (const kind of Object.keys(RESOURCE_DEFINITIONS))
      expect(targets).to.include(`docs/resources/${kind}.md`);
    const functions = Object.keys(codesec).filter(
      (name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"),
    );
    expect(Object.keys(FUNCTION_DEFINITIONS).sort()).to.deep.equal(functions.sort());
  });

  it("each resource page opens with its definition's description and operations, said nowhere else", () => {
    for (const definition of Object.values<ResourceDefinition>(RESOURCE_DEFINITIONS)) {
      const entry = docEntries().find((doc) => doc.target === `docs/resources/${definition.name}.md`)!;
      const page = fs.readFileSync(path.join(root, entry.target), "utf8");
      const opening = page.split("\n").slice(2, 7).join("\n");
      expect(opening, definition.name).to.equal(
        [
          `# \`codesec.${definition.name}\``,
          "",
          definition.description,
          "",
          `Type token \`pulumi-nodejs:dynamic/codesec:${definition.name}\`. Platform: ${definition.operations}.`,
        ].join("\n"),
      );
      // The hand-written source holds neither the heading nor the type token: the generator writes them.
      const source = fs.readFileSync(path.join(root, entry.source), "utf8");
      expect(source, entry.source).not.to.match(/^# |Type token `pulumi-nodejs/m);
    }
  });

  it("every field of every table has a description", () => {
    const shapes = [
      ...Object.values<ResourceDefinition>(RESOURCE_DEFINITIONS).flatMap((kind) => [
        inputShape(kind),
        outputShape(kind),
      ]),
      ...Object.values<FunctionDefinition>(FUNCTION_DEFINITIONS).flatMap((fn) => [
        ...(fn.args ? [fn.args] : []),
        fn.result,
        ...Object.values(fn.more ?? {}),
      ]),
    ];
    const undescribed = shapes
      .flatMap((shape) => Object.entries<TSchema>(shape?.properties ?? {}))
      .filter(([, schema]) => typeof schema.description !== "string" || schema.description === "")
      .map(([field]) => field);
    expect(undescribed).to.deep.equal([]);
  });

  it("lint's check passes an untouched copy, then names each page whose table, example or README program was edited, each doc no source generates and each example source no page shows, and nothing else", () => {
    const copy = copyOfDocs();
    try {
      // The check passes a copy as it was committed, so the failure below is the edits' doing.
      const untouched = runCheck(copy);
      expect(untouched.status, `an untouched copy passes: ${untouched.stderr}`).to.equal(0);
      // A table edited by hand.
      const doc = path.join(copy, "docs/resources/UserRole.md");
      fs.writeFileSync(doc, fs.readFileSync(doc, "utf8").replace("| replace |", "| update in place |"));
      // A doc that no source generates any more.
      fs.writeFileSync(path.join(copy, "docs/resources/RetiredKind.md"), "# codesec.RetiredKind\n");
      // A generated example that changed: its page only.
      const example = allDocsExamples().find((candidate) =>
        candidate.target.endsWith("/WorkflowProvisioning/main"),
      )!;
      const python = path.join(copy, examplePrograms(example)[1].file);
      fs.writeFileSync(python, fs.readFileSync(python, "utf8").replace("deployment_id=", "deployment="));
      // The README's generated Python program edited by hand.
      const readme = path.join(copy, "README.md");
      fs.writeFileSync(readme, fs.readFileSync(readme, "utf8").replace('user_id="502"', 'user_id="503"'));
      // Example sources that belong to nothing, or that no page shows.
      const stray = [
        "provider/functions/examples/getBranchs/main.pp",
        "provider/examples/extra.pp",
        "provider/resources/userRole/examples/second.pp",
        "provider/resources/userRole/examples/nested/main.pp",
      ];
      const source = fs.readFileSync(path.join(root, "provider/resources/userRole/examples/main.pp"), "utf8");
      for (const file of stray) {
        fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
        fs.writeFileSync(path.join(copy, file), source);
      }
      const result = runCheck(copy);
      expect(result.status).to.equal(1);
      // Exactly these: every page of the copy left untouched is fresh.
      expect(result.stderr).to.equal(
        `Generated docs are stale (run \`npm run docs\`): ${[
          "docs/resources/UserRole.md",
          "docs/resources/WorkflowProvisioning.md",
          "docs/resources/RetiredKind.md (generated by no source: remove it)",
          "README.md",
          "provider/examples/extra.pp (an example source no page shows: the README shows provider/examples/readme.pp only)",
          "provider/functions/examples/getBranchs/main.pp (an example source of no function: getBranchs is none)",
          "provider/resources/userRole/examples/nested/main.pp (an example source no page shows: a kind's examples are provider/resources/userRole/examples/<name>.pp)",
          "provider/resources/userRole/examples/second.pp (an example source no page shows: add `<!-- example: second -->` to provider/resources/userRole/docs.md, or remove it)",
        ].join(", ")}\n`,
      );
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("a changed field description in a shape makes its doc stale, and only that one", () => {
    const role = inputShape(RESOURCE_DEFINITIONS.UserRole).properties.role;
    const original = role.description;
    role.description = "A description the committed doc does not have.";
    try {
      expect(staleDocs(root)).to.deep.equal(["docs/resources/UserRole.md"]);
    } finally {
      role.description = original;
    }
  });
  it("every resource page and every function page shows a generated example in every language", () => {
    for (const entry of docEntries()) {
      const page = fs.readFileSync(path.join(root, entry.target), "utf8");
      for (const fence of ["```ts\n", "```python\n", "```go\n"]) {
        expect(page, `${entry.target} has a ${fence.trim()} block`).to.include(fence);
      }
      expect(page, `${entry.target} names its generated example's source`).to.match(
        /examples\/[\w/]*main\.pp/,
      );
    }
    expect(allDocsExamples().length).to.be.at.least(docEntries().length);
  });
});
