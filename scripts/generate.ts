/**
 * Writes everything generated from the definitions and checks that the committed copies are fresh: the
 * dynamic package's classes and functions with their typings and each kind's engine entry, with its
 * `./dynamic/<Kind>` export in package.json (scripts/typescript/dynamicPackage.ts), `schema.json`
 * (scripts/schema.ts), the SDKs generated from it by pulumi-gen-codesec (provider/cmd/pulumi-gen-codesec,
 * built by `npm run setup`), and the docs examples it generates from
 * their PCL sources in every language (scripts/docsExamples.ts; `npm run docs` then inlines them).
 *
 *   npm run generate                   write schema.json, every committed SDK and the docs examples
 *   scripts/generate.ts --check        write nothing; fail naming each stale file (lint)
 *   scripts/generate.ts --root DIR     the same for a copy of the repository at DIR
 *
 * Without a generator built for the current source of provider/cmd/pulumi-gen-codesec, both fail, saying
 * to run `npm run setup`: a check that cannot run is not a check that passed.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as prettier from "prettier";
import * as ts from "typescript";
import { docsExamples, EXAMPLE_GROUPS, EXAMPLES_DIR } from "./docsExamples";
import { SCHEMA_PATH, schemaText } from "./schema";
import { GENERATED_DIR } from "../provider/generatedLayout";
import { dynamicPackageFiles, packageManifestText } from "./typescript/dynamicPackage";

const REPOSITORY_ROOT = path.resolve(__dirname, "..");

/** The SDKs committed to the repository, by language, and their folders. */
export const COMMITTED_SDKS = { nodejs: "sdk/nodejs", python: "sdk/python", go: "sdk/go" } as const;

/** No generator for the current source: the message says what to run. */
export class GeneratorMissingError extends Error {}

/** The generator built for the current source (scripts/build-generator.sh --path). */
export function generatorPath(): string {
  const result = spawnSync("bash", [path.join(REPOSITORY_ROOT, "scripts/build-generator.sh"), "--path"], {
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new GeneratorMissingError(result.stderr.trim() || "scripts/build-generator.sh --path failed");
  }
  return result.stdout.trim();
}

/**
 * Runs the generator: `language` SDK of `schemaFile` into `outDir` (replaced as a whole). The Go SDK's
 * go.mod then gets the Pulumi Go SDK's `go` line, its direct requirements and a go.sum
 * (scripts/tidy-go-sdk.sh), so that the module builds on its own.
 */
export function generateSdk(generator: string, schemaFile: string, language: string, outDir: string): void {
  const result = spawnSync(generator, [schemaFile, language, outDir], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `pulumi-gen-codesec ${language} failed: ${result.stderr.trim() || `exit ${result.status}`}`,
    );
  }
  if (language !== "go") return;
  const tidy = spawnSync("bash", [path.join(REPOSITORY_ROOT, "scripts/tidy-go-sdk.sh"), outDir], {
    encoding: "utf8",
  });
  if (tidy.status !== 0) {
    throw new Error(
      `scripts/tidy-go-sdk.sh (the Go SDK's go.mod and go.sum) failed: ${tidy.stderr.trim() || `exit ${tidy.status}`}`,
    );
  }
}

/**
 * Runs the generator's program mode: the docs example whose PCL source is `source`, bound against
 * `schemaFile`, into `outDir`/<language folder>. Any diagnostic fails it, naming the source, and so does a
 * program that does not parse (programsNotParsing): Pulumi's program generators can write one with exit 0.
 */
export function generateExample(generator: string, schemaFile: string, source: string, outDir: string): void {
  const result = spawnSync(generator, [schemaFile, "program", source, outDir], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`pulumi-gen-codesec program failed: ${result.stderr.trim() || `exit ${result.status}`}`);
  }
  const problems = programsNotParsing(outDir);
  if (problems.length > 0) {
    throw new Error(
      `pulumi-gen-codesec program wrote, from ${source}, programs that do not parse:\n${problems.join("\n")}`,
    );
  }
}

/**
 * The programs of one generated example (under `outDir`) that do not parse, each as `file: problem`: the
 * TypeScript by TypeScript's parser, the Python by python3's (`ast.parse`: no bytecode written, no
 * virtual environment needed). The Go needs no check here: pulumi-gen-codesec formats it with go/format,
 * which fails on Go that does not parse.
 */
export function programsNotParsing(outDir: string): string[] {
  const problems: string[] = [];
  const typescript = path.join(outDir, "typescript/index.ts");
  if (fs.existsSync(typescript)) {
    const output = ts.transpileModule(fs.readFileSync(typescript, "utf8"), {
      fileName: typescript,
      reportDiagnostics: true,
    });
    for (const diagnostic of output.diagnostics ?? []) {
      const { line, character } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      problems.push(
        `${typescript}:${line + 1}:${character + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
      );
    }
  }
  const python = path.join(outDir, "python/__main__.py");
  if (fs.existsSync(python)) {
    const parsed = spawnSync(
      "python3",
      ["-c", "import ast, sys\nwith open(sys.argv[1]) as f: ast.parse(f.read(), sys.argv[1])", python],
      { encoding: "utf8" },
    );
    if (parsed.error) throw new Error(`cannot run python3 to parse ${python}: ${parsed.error.message}`);
    if (parsed.status !== 0) {
      const lines = parsed.stderr.trim().split("\n");
      problems.push(`${python}: ${lines.slice(-4).join(" ").replace(/\s+/g, " ")}`);
    }
  }
  return problems;
}

/**
 * Writes every docs example under `examplesRoot` (a scratch folder), from the sources under `root`: each
 * group's folder is written whole, so an example whose source is gone does not linger. The first source
 * that fails stops it, naming that source.
 */
function generateExamples(generator: string, schemaFile: string, root: string, examplesRoot: string): void {
  for (const group of EXAMPLE_GROUPS)
    fs.rmSync(path.join(examplesRoot, group), { recursive: true, force: true });
  for (const example of docsExamples(root)) {
    const outDir = path.join(examplesRoot, path.relative(EXAMPLES_DIR, example.target));
    generateExample(generator, schemaFile, path.join(root, example.source), outDir);
  }
}

/**
 * Writes the docs examples into docs/examples under `root`, all or nothing: every example is generated
 * into a scratch folder first, and the committed groups are replaced only once all succeeded, so one
 * broken source leaves every committed program as it was.
 */
function replaceExamples(generator: string, schemaFile: string, root: string): void {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-examples-"));
  try {
    generateExamples(generator, schemaFile, root, scratch);
    for (const group of EXAMPLE_GROUPS) {
      const target = path.join(root, EXAMPLES_DIR, group);
      fs.rmSync(target, { recursive: true, force: true });
      if (fs.existsSync(path.join(scratch, group)))
        fs.cpSync(path.join(scratch, group), target, { recursive: true });
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes schema.json, every committed SDK and the docs examples under `root`. */
export function generate(root: string): void {
  const generator = generatorPath();
  const schemaFile = path.join(root, SCHEMA_PATH);
  fs.mkdirSync(path.dirname(schemaFile), { recursive: true });
  fs.writeFileSync(schemaFile, schemaText(root));
  for (const [language, folder] of Object.entries(COMMITTED_SDKS)) {
    generateSdk(generator, schemaFile, language, path.join(root, folder));
  }
  replaceExamples(generator, schemaFile, root);
}

/**
 * The files under `root` that differ from what generation writes now: schema.json, and in each committed
 * SDK every file that differs or is missing, and every file no generation writes (left behind by a
 * removed resource or function). What the SDK's own .gitignore names (node_modules/, bin/, Python
 * bytecode) is skipped. The same for the docs examples, in the folder of each of EXAMPLE_GROUPS under docs/examples.
 */
export function staleGenerated(root: string): string[] {
  const generator = generatorPath();
  const stale: string[] = [];
  const schema = schemaText(root);
  const committedSchema = path.join(root, SCHEMA_PATH);
  if (!fs.existsSync(committedSchema) || fs.readFileSync(committedSchema, "utf8") !== schema) {
    stale.push(SCHEMA_PATH);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-generate-"));
  try {
    const schemaFile = path.join(scratch, "schema.json");
    fs.writeFileSync(schemaFile, schema);
    for (const [language, folder] of Object.entries(COMMITTED_SDKS)) {
      const fresh = path.join(scratch, language);
      generateSdk(generator, schemaFile, language, fresh);
      stale.push(...treeDifferences(fresh, path.join(root, folder)).map((file) => `${folder}/${file}`));
    }
    const freshExamples = path.join(scratch, "examples");
    generateExamples(generator, schemaFile, root, freshExamples);
    for (const group of EXAMPLE_GROUPS) {
      const folder = `${EXAMPLES_DIR}/${group}`;
      stale.push(
        ...treeDifferences(path.join(freshExamples, group), path.join(root, folder)).map(
          (file) => `${folder}/${file}`,
        ),
      );
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return stale;
}

/** The files of `committed` that differ from `fresh`'s, are missing, or are not in `fresh`; sorted. */
/** How a check names a file in a generated place that its generator no longer writes. */
function leftOver(file: string): string {
  return `${file} (generated by nothing: remove it)`;
}

function treeDifferences(fresh: string, committed: string): string[] {
  const ignored = gitignoreMatcher(fresh);
  const freshFiles = fs.existsSync(fresh) ? filesUnder(fresh, ignored) : new Set<string>();
  const committedFiles = fs.existsSync(committed) ? filesUnder(committed, ignored) : new Set<string>();
  const differences: string[] = [];
  for (const file of freshFiles) {
    if (!committedFiles.has(file)) differences.push(`${file} (missing)`);
    else if (!fs.readFileSync(path.join(fresh, file)).equals(fs.readFileSync(path.join(committed, file)))) {
      differences.push(file);
    }
  }
  for (const file of committedFiles) {
    if (!freshFiles.has(file)) differences.push(leftOver(file));
  }
  return differences.sort();
}

/**
 * Whether a file or folder name is one the generated SDK's own .gitignore names: its patterns are single
 * names or globs (`node_modules/`, `bin/`, `__pycache__`, `*.pyc`, `*.egg-info`), which git matches at any
 * depth. What a build or an editable install leaves there (Python bytecode, egg-info) is not generated.
 */
function gitignoreMatcher(sdk: string): (name: string) => boolean {
  const gitignore = path.join(sdk, ".gitignore");
  if (!fs.existsSync(gitignore)) return () => false;
  const patterns = fs
    .readFileSync(gitignore, "utf8")
    .split("\n")
    .map((line) => line.trim().replace(/\/$/, ""))
    .filter((line) => /^[\w.*-]+$/.test(line))
    .map((glob) => new RegExp(`^${glob.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`));
  return (name) => patterns.some((pattern) => pattern.test(name));
}

/** Every file under `dir`, as `/`-separated paths relative to it, but those with an `ignored` name on the way. */
function filesUnder(dir: string, ignored: (name: string) => boolean): Set<string> {
  const files = new Set<string>();
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      if (ignored(entry.name)) continue;
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else files.add(child);
    }
  };
  walk("");
  return files;
}

/**
 * The dynamic package's generated files, formatted as the repository formats its sources, and package.json
 * with the kinds' engine entries.
 */
async function formattedDynamicPackage(root: string): Promise<Map<string, string>> {
  const config = (await prettier.resolveConfig(path.join(root, "package.json"))) ?? {};
  const files = new Map<string, string>();
  for (const [file, text] of dynamicPackageFiles(root)) {
    files.set(file, await prettier.format(text, { ...config, parser: "typescript" }));
  }
  files.set("package.json", packageManifestText(fs.readFileSync(path.join(root, "package.json"), "utf8")));
  return files;
}

/** The files under `root`'s provider/generated/ that generation does not write (a removed kind's, say). */
function leftOverDynamicFiles(root: string, generated: Map<string, string>): string[] {
  const folder = path.join(root, GENERATED_DIR);
  if (!fs.existsSync(folder)) return [];
  return [...filesUnder(folder, () => false)]
    .map((file) => `${GENERATED_DIR}/${file}`)
    .filter((file) => !generated.has(file));
}

/** Writes the dynamic package's generated files under `root`, and removes what provider/generated/ holds besides. */
export async function generateDynamicPackage(root: string): Promise<void> {
  const generated = await formattedDynamicPackage(root);
  for (const file of leftOverDynamicFiles(root, generated)) fs.rmSync(path.join(root, file));
  for (const [file, text] of generated) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}

/**
 * The dynamic package's generated files under `root` that differ from what generation writes now or are
 * missing, and every file of provider/generated/ that no generation writes.
 */
export async function staleDynamicPackage(root: string): Promise<string[]> {
  const generated = await formattedDynamicPackage(root);
  const stale: string[] = [];
  for (const [file, text] of generated) {
    const target = path.join(root, file);
    if (!fs.existsSync(target)) stale.push(`${file} (missing)`);
    else if (fs.readFileSync(target, "utf8") !== text) stale.push(file);
  }
  stale.push(...leftOverDynamicFiles(root, generated).map(leftOver));
  return stale;
}

async function main(): Promise<void> {
  const rootArg = process.argv.indexOf("--root");
  const root = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : REPOSITORY_ROOT;
  try {
    if (process.argv.includes("--check")) {
      const stale = [...(await staleDynamicPackage(root)), ...staleGenerated(root)];
      if (stale.length > 0) {
        console.error(
          `Generated schema, SDK or docs example files are stale (run \`npm run generate\`): ${stale.join(", ")}`,
        );
        process.exit(1);
      }
      return;
    }
    // The docs examples first: each kind's class takes its TSDoc example from the generated TypeScript one.
    generate(root);
    await generateDynamicPackage(root);
  } catch (error) {
    if (!(error instanceof GeneratorMissingError)) throw error;
    console.error(
      `Cannot ${process.argv.includes("--check") ? "check" : "write"} the generated SDKs: ${error.message}`,
    );
    process.exit(1);
  }
}

if (require.main === module) void main();
