/**
 * Writes the resource and function reference (`docs/resources/<Kind>.md`, `docs/functions/<name>.md`) from
 * each one's hand-written source (`provider/resources/<kind>/docs.md`, `provider/functions/<name>.md`) and
 * the field descriptions in its schemas. A source marks where a table goes with a line
 * `<!-- table: NAME -->`; NAME is one of the tables the doc's entry below defines. A line
 * `<!-- example: NAME -->` is replaced by the docs example NAME of the kind or function (its PCL source
 * `provider/resources/<kind>/examples/NAME.pp` or `provider/functions/examples/<function>/NAME.pp`) in
 * every language, as `npm run generate` committed it under docs/examples (scripts/docsExamples.ts).
 * README.md is written by hand but for one region, its program in Python and Go, from
 * provider/examples/readme.pp: `<!-- example: readme ... -->` to `<!-- end example -->`.
 *
 * The screenshot of the rendered PR comment (scripts/reviewScreenshot.ts) is made here too (with Chromium,
 * only when stale), and checked by the digests of the page it shows and of its PNG (without).
 *
 *   npm run docs                     write every generated doc, and the screenshot when stale
 *   scripts/docs.ts --check          write nothing; fail naming each generated doc that is stale (lint)
 *   scripts/docs.ts --root DIR       the same for a copy of the repository at DIR
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TObject, TSchema } from "@sinclair/typebox";
import { FUNCTION_DEFINITIONS } from "../provider/functions/definitions";
import {
  docsExample,
  EXAMPLE_LANGUAGES,
  exampleSourceFiles,
  examplePrograms,
  OWNED_EXAMPLE_GROUPS,
  ownedExampleSourcePlace,
  ownerExamplesSource,
  PACKAGE_EXAMPLES_SOURCE,
  README_EXAMPLE,
  type ExampleProgram,
  type OwnedExampleGroupName,
} from "./docsExamples";
import type { FunctionDefinition } from "../provider/functions/definition";
import { staleScreenshot, writeScreenshot } from "./reviewScreenshot";
import { generatedHeader } from "./generatedHeader";
import { kindFolder } from "../provider/resources/kindFolder";
import { schemaName } from "../provider/schemaNames";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../provider/resources/registry";
import {
  inputShape,
  outputShape,
  type OnChange,
  type ResourceDefinition,
} from "../provider/resources/definition";

/** One generated doc: where its prose comes from, where it goes, and the tables its markers name. */
export interface DocEntry {
  /** The page's heading and first paragraphs, from its definition; the source's prose follows. */
  readonly intro?: string;
  readonly source: string;
  readonly target: string;
  /** The files the tables come from, for the "generated from" note. */
  readonly schemaFiles: readonly string[];
  readonly tables: Readonly<Record<string, string>>;
  /** Whose docs examples the `example` markers name. */
  readonly examples: { readonly group: OwnedExampleGroupName; readonly owner: string };
}

export function docEntries(): DocEntry[] {
  const resources = RESOURCE_KIND_NAMES.map((kind): DocEntry => {
    const folder = `provider/resources/${kindFolder(kind)}`;
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
    return {
      intro: resourceIntro(definition),
      source: `${folder}/docs.md`,
      target: `docs/resources/${kind}.md`,
      schemaFiles: [`${folder}/definition.ts`],
      examples: { group: "resources", owner: kind },
      tables: {
        inputs: fieldTable(inputShape(definition), "input", (field) =>
          onChangeWords(definition.inputs[field].onChange),
        ),
        outputs:
          Object.keys(definition.outputs).length === 0
            ? "No outputs beyond the inputs (as applied)."
            : fieldTable(outputShape(definition), "output"),
      },
    };
  });
  const functions = Object.values<FunctionDefinition>(FUNCTION_DEFINITIONS).map(
    ({ name, args, result, more = {} }): DocEntry => ({
      source: `provider/functions/${name}.md`,
      target: `docs/functions/${name}.md`,
      schemaFiles: ["provider/functions/definitions.ts"],
      examples: { group: "functions", owner: name },
      tables: {
        arguments:
          args && Object.keys(args.properties).length > 0 ? fieldTable(args, "argument") : "No arguments.",
        result: fieldTable(result, "result field"),
        ...Object.fromEntries(
          Object.entries(more).map(([table, shape]) => [table, fieldTable(shape, "field")]),
        ),
      },
    }),
  );
  return [...resources, ...functions];
}

/** The generated text of one doc, from its source under `root`. */
export function renderDoc(root: string, entry: DocEntry): string {
  const source = fs.readFileSync(path.join(root, entry.source), "utf8");
  const exampleSources: string[] = [];
  const body = source
    .replace(/^<!-- table: ([\w-]+) -->$/gm, (_marker, name: string) => {
      const table = entry.tables[name];
      if (table === undefined) throw new Error(`${entry.source}: no table named "${name}"`);
      return table;
    })
    .replace(/^<!-- example: ([\w-]+) -->$/gm, (_marker, name: string) => {
      const example = docsExample(entry.examples.group, entry.examples.owner, name);
      exampleSources.push(example.source);
      return renderExample(root, entry, name);
    });
  const header = generatedHeader("`npm run docs`", [entry.source, ...exampleSources, ...entry.schemaFiles]);
  const intro = entry.intro === undefined ? "" : `${entry.intro}\n\n`;
  return `<!-- ${header} -->\n\n${intro}${body}`;
}

/** A resource page's heading and introduction: the definition's description, then its operations. */
export function resourceIntro(definition: ResourceDefinition): string {
  return [
    `# \`codesec.${definition.name}\``,
    definition.description,
    `Type token \`pulumi-nodejs:dynamic/codesec:${definition.name}\`. Platform: ${definition.operations}.`,
  ].join("\n\n");
}

/**
 * A docs example on its page: one block per language, in the order of EXAMPLE_LANGUAGES (as the Pulumi
 * registry shows them), each headed by the language and the SDK it imports, then where it comes from.
 */
export function renderExample(root: string, entry: DocEntry, name: string): string {
  const example = docsExample(entry.examples.group, entry.examples.owner, name);
  if (!fs.existsSync(path.join(root, example.source))) {
    throw new Error(`${entry.source}: no example "${name}" (${example.source})`);
  }
  const blocks = examplePrograms(example).map((program) =>
    programBlock(
      root,
      program,
      `${program.language.title} (${program.language.sdk}):`,
      `${entry.source}: example "${name}"`,
    ),
  );
  const link = path.posix.relative(path.posix.dirname(entry.target), example.source);
  return [
    ...blocks,
    `<sub>The native provider's SDKs. Generated by \`npm run generate\` from one source, [${path.posix.basename(example.source)}](${link}) ` +
      `(PCL), in ${EXAMPLE_LANGUAGES.map((language) => language.title).join(", ")}; ` +
      "tests run the TypeScript against the emulator and type-check, run or compile each " +
      "(tests/integration/docsExamples.run.test.ts, tests/unit/docs.examples.test.ts, tests/e2e/docsExamples.test.ts).</sub>",
  ].join("\n\n");
}

/**
 * One generated program under `root` as a fenced block headed by `lead`; `whose` names its example in the
 * error when the program was never generated.
 */
function programBlock(root: string, { language, file }: ExampleProgram, lead: string, whose: string): string {
  const program = path.join(root, file);
  if (!fs.existsSync(program)) throw new Error(`${whose} has no ${file}: run \`npm run generate\``);
  const code = fs.readFileSync(program, "utf8").replace(/\n*$/, "\n");
  return `${lead}\n\n\`\`\`${language.fence}\n${code}\`\`\``;
}

/** The README's region that holds its program in Python and Go, generated (its first line is kept). */
const README_REGION = /^(<!-- example: readme\b.*-->)\n[\s\S]*?^<!-- end example -->$/m;

/** README.md under `root` with its generated region rendered from the committed docs example. */
export function renderReadme(root: string): string {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  if (!README_REGION.test(readme)) {
    throw new Error("README.md has no region `<!-- example: readme ... -->` ... `<!-- end example -->`");
  }
  const programs = examplePrograms(README_EXAMPLE);
  const program = (folder: string) => programs.find((candidate) => candidate.language.folder === folder)!;
  const block = (folder: string, lead: string) =>
    programBlock(root, program(folder), lead, "README.md's example");
  const typescript = program("typescript").file;
  const region = [
    block("python", "The README's TypeScript program in Python (`__main__.py`, `runtime: python`):"),
    block("go", "And in Go (`main.go`, `runtime: go`):"),
    `<sub>Both generated by \`npm run generate\` from one source, [${README_EXAMPLE.source}](${README_EXAMPLE.source}) ` +
      `(PCL), as is its TypeScript on the native SDK, [${typescript}](${typescript}); ` +
      "tests/e2e/readmeLanguages.test.ts runs the two above through the Pulumi CLI.</sub>",
    "<!-- end example -->",
  ].join("\n\n");
  return readme.replace(README_REGION, (_region, first: string) => `${first}\n\n${region}`);
}

/** The folders of generated docs; each file there but their README.md comes from a source. */
export const GENERATED_DIRS = ["docs/resources", "docs/functions"];

/**
 * The generated docs under `root` whose text differs from what the sources and schemas give, and any
 * file in their folders that no source generates (left behind by a removed or renamed kind or function).
 */
export function staleDocs(root: string): string[] {
  const entries = docEntries();
  const stale = entries
    .filter((entry) => {
      const target = path.join(root, entry.target);
      return !fs.existsSync(target) || fs.readFileSync(target, "utf8") !== renderDoc(root, entry);
    })
    .map((entry) => entry.target);
  const generated = new Set(entries.map((entry) => entry.target));
  const orphans = GENERATED_DIRS.flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir))
      .filter((file) => file.endsWith(".md") && file !== "README.md")
      .map((file) => `${dir}/${file}`)
      .filter((file) => !generated.has(file))
      .map((file) => `${file} (generated by no source: remove it)`),
  );
  const readme =
    fs.readFileSync(path.join(root, "README.md"), "utf8") !== renderReadme(root) ? ["README.md"] : [];
  return [...stale, ...orphans, ...readme, ...unshownExampleSources(root, entries)];
}

/** The example names a page's source shows (its `<!-- example: NAME -->` lines). */
function shownExampleNames(root: string, entry: DocEntry): Set<string> {
  const source = fs.readFileSync(path.join(root, entry.source), "utf8");
  return new Set([...source.matchAll(/^<!-- example: ([\w-]+) -->$/gm)].map((match) => match[1]));
}

/**
 * Every `.pp` file under the example sources' folders that no page shows, each with why: it is in the
 * folder of no resource kind or function, nested where no example is looked for, not named by its
 * page's `<!-- example: NAME -->` line, or (under provider/examples) not the README's readme.pp. Such a
 * file would be generated from, or silently skipped, yet never seen by a reader.
 */
export function unshownExampleSources(root: string, entries: readonly DocEntry[] = docEntries()): string[] {
  const pages = new Map<string, { entry: DocEntry; shown: Set<string> }>();
  for (const entry of entries) {
    const dir = ownerExamplesSource(entry.examples.group, entry.examples.owner);
    pages.set(dir, { entry, shown: shownExampleNames(root, entry) });
  }
  const problems: string[] = [];
  for (const file of exampleSourceFiles(root)) {
    const problem = (why: string) => problems.push(`${file} (${why})`);
    if (file.startsWith(`${PACKAGE_EXAMPLES_SOURCE}/`)) {
      if (file !== README_EXAMPLE.source)
        problem(`an example source no page shows: the README shows ${README_EXAMPLE.source} only`);
      continue;
    }
    const place = ownedExampleSourcePlace(file);
    if (place === undefined) {
      problem(
        "an example source no page shows: examples go in a kind's examples/ or provider/functions/examples/<function>/",
      );
      continue;
    }
    const page = pages.get(place.dir);
    const { noun, whose } = OWNED_EXAMPLE_GROUPS[place.group];
    if (page === undefined) {
      problem(`an example source of no ${noun}: ${place.folder} is none`);
    } else if (place.name.includes("/")) {
      problem(`an example source no page shows: ${whose} examples are ${place.dir}/<name>.pp`);
    } else if (!page.shown.has(place.name)) {
      problem(
        `an example source no page shows: add \`<!-- example: ${place.name} -->\` to ${page.entry.source}, or remove it`,
      );
    }
  }
  return problems;
}

/** The docs' "on change" column: what the definition's `onChange` does, in words. */
export function onChangeWords(onChange: OnChange): string {
  switch (onChange) {
    case "replace":
      return "replace";
    case "update":
      return "update in place";
    case "record":
      return "update, recorded only (no API call)";
    case "never":
      return "never a diff";
  }
}

function fieldTable(shape: TObject, noun: string, change?: (field: string) => string): string {
  const required = new Set(shape.required ?? []);
  const header = change
    ? `| ${noun} | type | on change | description |\n|---|---|---|---|`
    : `| ${noun} | type | description |\n|---|---|---|`;
  const rows = Object.entries(shape.properties).map(([field, schema]) => {
    const type = typeName(schema) + (required.has(field) ? "" : ", optional");
    const cells = [
      fieldNames(field),
      type,
      ...(change ? [change(field)] : []),
      String(schema.description ?? ""),
    ];
    return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
  });
  return [header, ...rows].join("\n");
}

/**
 * A field's name as the native SDKs' schema has it and, where the platform's differs (notification rules'
 * snake_case), as the dynamic package keeps it.
 */
function fieldNames(field: string): string {
  const named = schemaName(field);
  return named === field ? `\`${field}\`` : `\`${named}\` (dynamic package: \`${field}\`)`;
}

/** A schema's type as a reader wants it: enum values, "numeric string", "integer 1-100", "string[]". */
export function typeName(schema: TSchema): string {
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as TSchema[];
    if (options.every((option) => option.const !== undefined)) {
      return options.map((option) => `\`${String(option.const)}\``).join(" | ");
    }
    return options.map(typeName).join(" or ");
  }
  switch (schema.type) {
    case "string":
      if (typeof schema.pattern === "string" && /^\^\[0-9\][+{]/.test(schema.pattern))
        return "numeric string";
      if (schema.format === "date-time") return "date-time string (RFC 3339)";
      return "string";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" && typeof schema.maximum === "number"
        ? `${schema.type} ${schema.minimum}-${schema.maximum}`
        : (schema.type as string);
    case "boolean":
      return "boolean";
    case "array":
      return `${typeName(schema.items as TSchema)}[]`;
    case "object":
      // TypeBox writes a Record as an object whose values are the one patternProperties schema.
      return schema.patternProperties
        ? `map of string to ${typeName(Object.values(schema.patternProperties as object)[0] as TSchema)}`
        : "object";
    default:
      return "any";
  }
}

function main(): void {
  // --root DIR checks (or writes) a copy of the repository instead; the tests use it.
  const rootArg = process.argv.indexOf("--root");
  const root = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(__dirname, "..");
  if (process.argv.includes("--check")) {
    const stale = staleDocs(root);
    if (stale.length > 0)
      console.error(`Generated docs are stale (run \`npm run docs\`): ${stale.join(", ")}`);
    // The screenshot is checked by the digests of the page it shows and of its PNG: no Chromium needed here.
    const screenshot = staleScreenshot(root);
    if (screenshot !== undefined) console.error(screenshot);
    if (stale.length > 0 || screenshot !== undefined) process.exit(1);
    return;
  }
  for (const entry of docEntries()) fs.writeFileSync(path.join(root, entry.target), renderDoc(root, entry));
  fs.writeFileSync(path.join(root, "README.md"), renderReadme(root));
  writeScreenshot(root);
}

if (require.main === module) main();
