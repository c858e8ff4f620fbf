/**
 * The TypeScript of the dynamic package that comes from the definitions alone, under provider/generated/
 * (provider/generatedLayout.ts): each resource class with its Args interface
 * (`provider/generated/resources/<Kind>.ts`) and each function's Promise and Output forms with their
 * argument and result types (`provider/generated/functions/<name>.ts`), with TSDoc on every field so an
 * editor's hover shows what the definition says; each kind's engine entry
 * (`provider/generated/engineEntries/<Kind>.ts`) and its `./dynamic/<Kind>` export in package.json.
 * `npm run generate` writes them; lint fails when one is stale, or when that folder holds a file it does not
 * write. Nothing here is written by hand twice: descriptions, types, what a change does, examples and
 * maturity all come from the one definition.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TObject, TSchema } from "@sinclair/typebox";
import { ORG_ROLES } from "../../api/schemas/common";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import type { FunctionDefinition } from "../../provider/functions/definition";
import {
  inputShape,
  keptInputNames,
  outputShape,
  type OnChange,
  type ResourceDefinition,
} from "../../provider/resources/definition";
import { kindFolder } from "../../provider/resources/kindFolder";
import {
  compiledFile,
  engineEntryFile,
  functionFile,
  resourceClassFile,
} from "../../provider/generatedLayout";
import { docsExample, examplePrograms } from "../docsExamples";
import { generatedHeader } from "../generatedHeader";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { isOptional, tsDoc, typeOf, wrap, type NamedEnums, type PrintOptions } from "./typeboxToTypeScript";

const ENUMS: NamedEnums = { OrgRole: ORG_ROLES };

const HEADER = (source: string, enums: boolean) =>
  `// ${generatedHeader("`npm run generate`", [source])}\n` +
  "// (scripts/typescript/dynamicPackage.ts)\n" +
  (enums
    ? "/* eslint-disable @typescript-eslint/no-redundant-type-constituents -- an enumeration's inputs take any " +
      "string, as generated SDKs' do (`string | OrgRole`), and `check` refuses a value outside it */\n"
    : "");

/** What a change to an input does, as one sentence for its TSDoc. */
const CHANGE_SENTENCE: Record<OnChange, string> = {
  replace: "Changing it replaces the resource.",
  update: "Changing it updates the resource in place.",
  record: "Changing it is recorded with no API call.",
  never: "Changing it alone is no change.",
};

/** An example as TSDoc lines (an `@example` with a fenced block). */
function exampleDoc(code: string): string[] {
  return ["@example", "```ts", ...code.split("\n"), "```"];
}

/** A TSDoc block from paragraphs, each wrapped at 110 columns; a paragraph that is an array is kept as lines. */
function doc(indent: string, paragraphs: (string | string[])[]): string[] {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    if (lines.length > 0) lines.push("");
    lines.push(...(Array.isArray(paragraph) ? paragraph : wrap(paragraph, 107 - indent.length)));
  }
  return [
    `${indent}/**`,
    ...lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`),
    `${indent} */`,
  ];
}

function properties(
  shape: TObject,
  names: readonly string[],
  indent: string,
  line: (name: string, schema: TSchema) => string,
  extraDoc: (name: string) => string[] = () => [],
): string[] {
  return names.flatMap((name) => {
    const schema = shape.properties[name];
    return [...tsDoc(schema.description, indent, extraDoc(name)), line(name, schema)];
  });
}

const REPOSITORY_ROOT = path.resolve(__dirname, "../..");

/**
 * A kind's example for its class's TSDoc: the TypeScript that `npm run generate` writes from its PCL
 * source (`provider/resources/<kind>/examples/main.pp`, the one source of the example in every language),
 * without its imports, indented as the repository's sources are.
 */
export function resourceExample(kind: string, root = REPOSITORY_ROOT): string {
  const program = examplePrograms(docsExample("resources", kind, "main")).find(
    ({ language }) => language.folder === "typescript",
  )!;
  const lines = fs.readFileSync(path.join(root, program.file), "utf8").trimEnd().split("\n");
  const body = lines.filter((line) => !line.startsWith("import "));
  while (body[0] === "") body.shift();
  return body.map((line) => line.replace(/^(?: {4})+/, (indent) => " ".repeat(indent.length / 2))).join("\n");
}

/** `provider/generated/resources/<Kind>.ts` for one kind. */
export function resourceClassText(definition: ResourceDefinition, root = REPOSITORY_ROOT): string {
  const name = definition.name;
  const folder = kindFolder(name);
  const inputs = inputShape(definition);
  const outputs = outputShape(definition);
  const input: PrintOptions = { mode: "input", enums: ENUMS, indent: "  " };
  const plain: PrintOptions = { mode: "plain", enums: ENUMS, indent: "  " };
  const inputNames = Object.keys(definition.inputs);
  const argsLines = properties(
    inputs,
    inputNames,
    "  ",
    (field, schema) => `  ${field}${isOptional(schema) ? "?" : ""}: ${typeOf(schema, input)};`,
    (field) => [CHANGE_SENTENCE[definition.inputs[field].onChange]],
  );
  const outputLines = [
    ...properties(inputs, keptInputNames(definition), "  ", (field, schema) => {
      const type = typeOf(schema, plain);
      const optional = isOptional(schema) && type !== "unknown";
      return `  declare public readonly ${field}: pulumi.Output<${optional ? `${type} | undefined` : type}>;`;
    }),
    ...properties(outputs, Object.keys(definition.outputs), "  ", (field, schema) => {
      return `  declare public readonly ${field}: pulumi.Output<${typeOf(schema, plain)}>;`;
    }),
  ];
  const uses = (type: string) => [...argsLines, ...outputLines].some((line) => line.includes(type));
  const lookup =
    definition.importRule.kind === "read"
      ? "The engine reads it with the kind's read (see the class's description) and records it in the stack " +
        "as a resource this program does not manage (`pulumi destroy` forgets it and changes nothing)."
      : `It is refused with an error that says why: ${definition.importRule.why}`;
  return [
    HEADER(`provider/resources/${folder}/definition.ts`, uses("string | OrgRole")),
    'import * as pulumi from "@pulumi/pulumi";',
    ...(uses("OrgRole") ? ['import type { OrgRole } from "../../enums";'] : []),
    `import { ${folder}Definition } from "../../resources/${folder}/definition";`,
    'import { declaredProps, resourceOptions, warnAboutArguments } from "../../dynamic/resourceProps";',
    'import { pausePromiseStacks } from "../../dynamic/promiseStacks";',
    'import { stubProvider } from "../../dynamic/stubProvider";',
    "",
    `/** Arguments of {@link ${name}}. */`,
    `export interface ${name}Args {`,
    ...argsLines,
    "}",
    "",
    ...doc("", [
      definition.description,
      `Platform: ${definition.operations}. **Experimental** platform operations. Type token ` +
        `\`pulumi-nodejs:dynamic/codesec:${name}\`; reference: docs/resources/${name}.md.`,
      exampleDoc(resourceExample(name, root)),
    ]),
    `export class ${name} extends pulumi.dynamic.Resource {`,
    ...outputLines,
    "",
    ...doc("  ", [
      `Looks up an existing ${name} by its id (\`<${definition.idParts.join(">/<")}>\`), as generated SDKs' ` +
        `\`get\` does. ${lookup} The lookup uses the stack's default connection (stack config ` +
        "`codesec:baseUrl` and `codesec:token`, else `CODESEC_BASE_URL` and `CODESEC_TOKEN`). **Experimental**.",
      exampleDoc(definition.getExample),
    ]),
    `  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ${name} {`,
    `    return new ${name}(name, undefined, { ...opts, id });`,
    "  }",
    "",
    `  constructor(name: string, args: ${name}Args, opts?: pulumi.CustomResourceOptions);`,
    `  /** @internal A lookup by id: see {@link ${name}.get}. */`,
    "  constructor(name: string, args: undefined, opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> });",
    `  constructor(name: string, args: ${name}Args | undefined, opts?: pulumi.CustomResourceOptions) {`,
    "    const resumePromiseStacks = pausePromiseStacks();",
    "    try {",
    "      super(",
    `        stubProvider("${name}"),`,
    "        name,",
    `        declaredProps(${folder}Definition, args),`,
    `        resourceOptions(${folder}Definition, opts, args),`,
    '        "codesec",',
    `        "${name}",`,
    "      );",
    "    } finally {",
    "      resumePromiseStacks();",
    "    }",
    "    warnAboutArguments(this, args, opts);",
    "  }",
    "}",
    "",
  ].join("\n");
}

/** `provider/generated/functions/<name>.ts` for one function. */
export function functionText(definition: FunctionDefinition): string {
  const name = definition.name;
  const Name = name.charAt(0).toUpperCase() + name.slice(1);
  const plain: PrintOptions = { mode: "plain", enums: ENUMS, indent: "  " };
  const input: PrintOptions = { mode: "input", enums: ENUMS, indent: "  " };
  const args = definition.args;
  const argNames = args === undefined ? [] : Object.keys(args.properties);
  const argLines = (options: PrintOptions) =>
    args === undefined
      ? []
      : properties(
          args,
          argNames,
          "  ",
          (field, schema) => `  ${field}${isOptional(schema) ? "?" : ""}: ${typeOf(schema, options)};`,
        );
  const resultLines = properties(
    definition.result,
    Object.keys(definition.result.properties),
    "  ",
    (field, schema) => `  ${field}${isOptional(schema) ? "?" : ""}: ${typeOf(schema, plain)};`,
  );
  const maturity = definition.maturity === "beta" ? "**Beta**" : "**Experimental**";
  const optional = definition.argsOptional ? "?" : "";
  const noArgs = argNames.length === 0;
  const uses = (type: string) =>
    [...argLines(plain), ...argLines(input), ...resultLines].some((l) => l.includes(type));
  return [
    HEADER("provider/functions/definitions.ts", uses("string | OrgRole")),
    'import type * as pulumi from "@pulumi/pulumi";',
    ...(uses("OrgRole") ? ['import type { OrgRole } from "../../enums";'] : []),
    `import { ${name}Definition } from "../../functions/definitions";`,
    "import {",
    "  invokeFunction,",
    "  outputForm,",
    "  type CodeSecInvokeOptions,",
    "  type CodeSecInvokeOutputOptions,",
    '} from "../../functions/invokeOptions";',
    "",
    `/** Arguments of {@link ${name}}${noArgs ? ": none" : ""}. */`,
    noArgs
      ? `export type ${Name}Args = Record<string, never>;`
      : `export interface ${Name}Args {\n${argLines(plain).join("\n")}\n}`,
    "",
    `/** Arguments of {@link ${name}Output}: as {@link ${Name}Args}, each of which may be an Output. */`,
    noArgs
      ? `export type ${Name}OutputArgs = Record<string, never>;`
      : `export interface ${Name}OutputArgs {\n${argLines(input).join("\n")}\n}`,
    "",
    `/** Result of {@link ${name}}. */`,
    `export interface ${Name}Result {`,
    ...resultLines,
    "}",
    "",
    ...doc("", [
      `${definition.description}`,
      `Platform: ${definition.operations}. ${maturity}.`,
      exampleDoc(definition.example),
    ]),
    `export async function ${name}(args${optional}: ${Name}Args, opts?: CodeSecInvokeOptions): Promise<${Name}Result> {`,
    `  return invokeFunction(${name}Definition, args, opts);`,
    "}",
    "",
    `const ${name}OutputForm = outputForm(${name});`,
    "",
    ...doc("", [
      `Output form of {@link ${name}}: the arguments may be Outputs, and the result waits for the resources ` +
        `they come from (and for \`dependsOn\`), as Pulumi's own Output-form invokes do. ${maturity}.`,
      exampleDoc(definition.outputExample),
    ]),
    `export function ${name}Output(args${optional}: ${Name}OutputArgs, opts?: CodeSecInvokeOutputOptions): pulumi.Output<${Name}Result> {`,
    `  return ${name}OutputForm(args ?? {}, opts);`,
    "}",
    "",
  ].join("\n");
}

/** `provider/generated/engineEntries/<Kind>.ts`: the module the engine loads for one kind. */
export function engineEntryText(kind: string): string {
  const folder = kindFolder(kind);
  return [
    HEADER(`provider/resources/${folder}/definition.ts`, false),
    ...doc("", [
      `What the engine loads for codesec:${kind}: the package subpath \`pulumi-codesec/dynamic/${kind}\`, ` +
        "which the provider stored with each resource names (provider/dynamic/stubProvider.ts; package.json's " +
        "entry is generated too). The module's exports are the provider object itself. Do not rename or move " +
        "without keeping that subpath: stacks store it.",
    ]),
    'import { engineEntry } from "../../dynamic/engineEntry";',
    'import { dynamicProvider } from "../../dynamic/dynamicProvider";',
    `import { ${folder}Definition } from "../../resources/${folder}/definition";`,
    "",
    `export = engineEntry("${kind}", dynamicProvider(${folder}Definition));`,
    "",
  ].join("\n");
}

/** package.json's export of one kind's engine entry, `./dynamic/<Kind>`. */
function kindExport(kind: string): { types: string; default: string } {
  const entry = `./${compiledFile(engineEntryFile(kind))}`;
  return { types: entry.replace(/\.js$/, ".d.ts"), default: entry };
}

/**
 * package.json's text with its `./dynamic/<Kind>` exports those of the registry's kinds, in its order,
 * right after `./dynamic`; every other entry and field stays as written.
 */
export function packageManifestText(manifestText: string): string {
  const manifest = JSON.parse(manifestText) as { exports: Record<string, unknown> };
  const exports: Record<string, unknown> = {};
  for (const [subpath, entry] of Object.entries(manifest.exports)) {
    if (subpath.startsWith("./dynamic/")) continue;
    exports[subpath] = entry;
    if (subpath === "./dynamic")
      for (const kind of RESOURCE_KIND_NAMES) exports[`./dynamic/${kind}`] = kindExport(kind);
  }
  return `${JSON.stringify({ ...manifest, exports }, null, 2)}\n`;
}

/** Every file this generator writes, by path from the repository root. */
export function dynamicPackageFiles(root = REPOSITORY_ROOT): Map<string, string> {
  const files = new Map<string, string>();
  for (const kind of RESOURCE_KIND_NAMES) {
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
    files.set(resourceClassFile(kind), resourceClassText(definition, root));
    files.set(engineEntryFile(kind), engineEntryText(kind));
  }
  for (const definition of Object.values<FunctionDefinition>(FUNCTION_DEFINITIONS)) {
    files.set(functionFile(definition.name), functionText(definition));
  }
  return files;
}
