/**
 * Every ```ts block in README.md and docs/**\/*.md compiles against the package's public typings, so an
 * example a user copies cannot silently stop matching the code. Convention: a block with its own
 * `import` statements is a whole program and is compiled as it is; any other block is a fragment of a
 * program and gets the implicit preamble below. Snippets that are not TypeScript are fenced as `sh`,
 * `yaml` or `text`, never `ts`: there is no way to skip a `ts` block.
 *
 * The docs examples generated from PCL (docs/examples/<group>/<owner>/<name>/typescript/index.ts, which
 * the pages inline) compile too, as they are committed, against the native provider's Node.js SDK; and,
 * but for those that make a `codesec.Provider` (the dynamic package has none), with their import swapped
 * to the dynamic package, as the pages say they do, and the notification rules' fields under the
 * platform's snake_case names, which the dynamic package keeps (`configError` is its `config_error`).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { RESOURCE_DEFINITIONS } from "../../provider/resources/registry";
import type { ResourceDefinition } from "../../provider/resources/definition";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import type { FunctionDefinition } from "../../provider/functions/definition";
import { docsExamples, examplePrograms } from "../../scripts/docsExamples";
import { NotificationRule } from "../../api/schemas/notificationRules";
import { schemaName } from "../../provider/schemaNames";

const root = path.resolve(__dirname, "../..");
const PREAMBLE = 'import * as pulumi from "@pulumi/pulumi";\nimport * as codesec from "pulumi-codesec";\n';

function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file));
  return ["README.md", ...docs.sort()];
}

interface Block {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

function tsBlocks(file: string): Block[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
    file,
    line: text.slice(0, match.index).split("\n").length + 1,
    code: match[1],
  }));
}

/**
 * The examples the definitions give the generated TSDoc (a resource's lookup, a function's two forms); a
 * resource's own example is the generated docs example of its PCL source, checked with those.
 */
function definitionExamples(): Block[] {
  const resources = Object.values<ResourceDefinition>(RESOURCE_DEFINITIONS).map((definition) => ({
    file: `provider/resources/${definition.name} definition (example)`,
    line: 1,
    code: `${definition.getExample}\n`,
  }));
  const functions = Object.values<FunctionDefinition>(FUNCTION_DEFINITIONS).flatMap((definition) =>
    [definition.example, definition.outputExample].map((code) => ({
      file: `provider/functions ${definition.name} definition (example)`,
      line: 1,
      code: `${code}\n`,
    })),
  );
  return [...resources, ...functions];
}

/** The generated TypeScript docs examples, and the same with the dynamic package's import where it applies. */
function generatedExamples(): Block[] {
  const examples = docsExamples(root);
  return examples.flatMap((example) => {
    const { file } = examplePrograms(example)[0];
    const code = fs.readFileSync(path.join(root, file), "utf8");
    const dynamic = Object.keys(NotificationRule.properties)
      .filter((field) => schemaName(field) !== field)
      .reduce(
        (text, field) => text.replace(new RegExp(`\\b${schemaName(field)}\\b`, "g"), field),
        code.replace('from "@pulumi-codesec/codesec"', 'from "pulumi-codesec"'),
      );
    return [
      { file, line: 1, code },
      ...(code.includes("new codesec.Provider(")
        ? []
        : [{ file: `${file} (dynamic package)`, line: 1, code: dynamic }]),
    ];
  });
}

describe("code examples in README.md and docs/", function () {
  this.timeout(120_000);

  it("every ```ts block, every definition's TSDoc example and every generated docs example type-checks against the public typings", () => {
    const generated = generatedExamples();
    expect(generated.length, "generated examples found").to.be.greaterThan(10);
    const blocks = [...markdownFiles().flatMap(tsBlocks), ...definitionExamples(), ...generated];
    expect(blocks.length, "blocks found").to.be.greaterThan(10);
    // Each block is a module of its own (top-level await and exports, as in a Pulumi program's entry).
    const sources = new Map(
      blocks.map((block, i) => {
        const wholeProgram = /^import /m.test(block.code);
        const text = `${wholeProgram ? "" : PREAMBLE}${block.code}\nexport {};\n`;
        return [path.join(root, ".doc-examples", `${i}.ts`), { block, text, offset: wholeProgram ? 0 : 2 }];
      }),
    );
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ["node"],
      skipLibCheck: true,
      // The package's public entry points, from source, as its package.json "exports" map them, and the
      // generated Node.js SDK of the native provider (docs/native-provider.md).
      baseUrl: root,
      paths: {
        "pulumi-codesec": ["provider/index.ts"],
        "pulumi-codesec/sdk": ["client/index.ts"],
        "@pulumi-codesec/codesec": ["sdk/nodejs/index.ts"],
      },
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (name) => sources.get(name)?.text ?? readFile(name);
    host.fileExists = (name) => sources.has(name) || fileExists(name);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) => {
      const virtual = sources.get(name);
      return virtual ? ts.createSourceFile(name, virtual.text, version) : getSourceFile(name, version);
    };
    const program = ts.createProgram([...sources.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && sources.has(d.file.fileName))
      .map((d) => {
        const { block, offset } = sources.get(d.file!.fileName)!;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${block.file}:${block.line + line - offset}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      });
    expect(problems).to.deep.equal([]);
  });
});
