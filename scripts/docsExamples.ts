/**
 * The docs examples: each is one PCL program (Pulumi's program language) beside what it documents,
 * `provider/resources/<kind>/examples/<name>.pp` or `provider/functions/examples/<function>/<name>.pp`,
 * and the README's program, `provider/examples/readme.pp`, from which `npm run generate` writes the
 * program in every language pulumi-gen-codesec generates
 * (`docs/examples/<resources|functions>/<Kind|function>/<name>/<language folder>/<file>`,
 * `docs/examples/readme/<language folder>/<file>`), and which `npm run docs` inlines into the page with a
 * `<!-- example: NAME -->` line (the README: between `<!-- example: readme ... -->` and `<!-- end example -->`).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Where the generated examples are committed, relative to the repository's root. */
export const EXAMPLES_DIR = "docs/examples";

/**
 * The languages an example is generated in, in the order the pages show them: the folder the generator
 * writes each to, the file in it, the Markdown fence, and the package the program imports.
 */
export const EXAMPLE_LANGUAGES = [
  {
    folder: "typescript",
    file: "index.ts",
    fence: "ts",
    title: "TypeScript",
    sdk: "`@pulumi-codesec/codesec`",
  },
  { folder: "python", file: "__main__.py", fence: "python", title: "Python", sdk: "`pulumi_codesec`" },
  {
    folder: "go",
    file: "main.go",
    fence: "go",
    title: "Go",
    sdk: "`github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec`",
  },
] as const;

/** One docs example: its PCL source and the folder its generated programs go to. */
export interface DocsExample {
  /** The PCL source, relative to the repository's root. */
  readonly source: string;
  /** The folder of its generated programs, relative to the repository's root. */
  readonly target: string;
}

/** The folder of a resource kind's examples' sources (`UserRole` -> provider/resources/userRole/examples). */
export function resourceExamplesSource(kind: string): string {
  return `provider/resources/${kind[0].toLowerCase()}${kind.slice(1)}/examples`;
}

/** The folder of the package's own examples' sources (the README's program). */
export const PACKAGE_EXAMPLES_SOURCE = "provider/examples";

/** Whose examples: a resource kind's, a function's, or the README's. */
export type ExampleGroup = "resources" | "functions" | "readme";

/** The folder of a function's examples' sources. */
export function functionExamplesSource(name: string): string {
  return `provider/functions/examples/${name}`;
}

/**
 * The example `name` of a resource kind or a function, by where its source is; or the README's program
 * (group "readme", owner and name "readme"), whose source is provider/examples/readme.pp and whose
 * programs go to docs/examples/readme.
 */
export function docsExample(group: ExampleGroup, owner: string, name: string): DocsExample {
  if (group === "readme")
    return { source: `${PACKAGE_EXAMPLES_SOURCE}/readme.pp`, target: `${EXAMPLES_DIR}/readme` };
  const sourceDir = group === "resources" ? resourceExamplesSource(owner) : functionExamplesSource(owner);
  return { source: `${sourceDir}/${name}.pp`, target: `${EXAMPLES_DIR}/${group}/${owner}/${name}` };
}

/**
 * Every docs example under `root`: each `.pp` file in a kind's `examples/` folder, in a function's
 * folder under provider/functions/examples, and provider/examples/readme.pp (the README's), sorted by target.
 */
export function docsExamples(
  root: string,
  kinds: readonly string[],
  functions: readonly string[],
): DocsExample[] {
  const found = (group: ExampleGroup, owner: string, dir: string): DocsExample[] =>
    fs.existsSync(path.join(root, dir))
      ? fs
          .readdirSync(path.join(root, dir))
          .filter((file) => file.endsWith(".pp"))
          .map((file) => docsExample(group, owner, file.slice(0, -".pp".length)))
      : [];
  return [
    ...kinds.flatMap((kind) => found("resources", kind, resourceExamplesSource(kind))),
    ...functions.flatMap((name) => found("functions", name, functionExamplesSource(name))),
    ...(fs.existsSync(path.join(root, PACKAGE_EXAMPLES_SOURCE, "readme.pp"))
      ? [docsExample("readme", "readme", "readme")]
      : []),
  ].sort((a, b) => a.target.localeCompare(b.target));
}

/** The folders under which every `.pp` file must be a docs example's source (checked by `npm run lint`). */
export const EXAMPLE_SOURCE_ROOTS = [
  "provider/resources",
  "provider/functions",
  PACKAGE_EXAMPLES_SOURCE,
] as const;

/** Every `.pp` file under EXAMPLE_SOURCE_ROOTS in `root`, relative to it (`/`-separated), sorted. */
export function exampleSourceFiles(root: string): string[] {
  return EXAMPLE_SOURCE_ROOTS.flatMap((dir) =>
    fs.existsSync(path.join(root, dir))
      ? fs
          .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
          .filter((file) => file.endsWith(".pp"))
          .map((file) => `${dir}/${file.split(path.sep).join("/")}`)
      : [],
  ).sort();
}

/** The generated program of `example` in each language: [language, path relative to the clone]. */
export function examplePrograms(
  example: DocsExample,
): { language: (typeof EXAMPLE_LANGUAGES)[number]; file: string }[] {
  return EXAMPLE_LANGUAGES.map((language) => ({
    language,
    file: `${example.target}/${language.folder}/${language.file}`,
  }));
}
