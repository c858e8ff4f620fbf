/**
 * The docs examples: each is one PCL program (Pulumi's program language) beside what it documents,
 * `provider/resources/<kind>/examples/<name>.pp` or `provider/functions/examples/<function>/<name>.pp`,
 * and the README's program, `provider/examples/readme.pp`, from which `npm run generate` writes the
 * program in every language pulumi-gen-codesec generates
 * (`docs/examples/<resources|functions>/<Kind|function>/<name>/<language folder>/<file>`,
 * `docs/examples/readme/<language folder>/<file>`), and which `npm run docs` inlines into the page with a
 * `<!-- example: NAME -->` line (the README: between `<!-- example: readme ... -->` and `<!-- end example -->`).
 * That layout is defined here once (OWNED_EXAMPLE_GROUPS, README_EXAMPLE, EXAMPLE_GROUPS); the generator,
 * the docs and the tests read it from here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { FUNCTION_DEFINITIONS } from "../provider/functions/definitions";
import { kindFolder } from "../provider/resources/kindFolder";
import { RESOURCE_KIND_NAMES } from "../provider/resources/registry";

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

/** A group of examples that each belong to one owner: a resource kind or a function. */
interface OwnedExampleGroup {
  /** The owners, as their pages name them. */
  readonly owners: readonly string[];
  /**
   * Where an owner's example sources are (every `.pp` file there is one), relative to the repository's
   * root: `*` stands for the owner's folder.
   */
  readonly sources: string;
  /** The name of an owner's folder. */
  readonly folder: (owner: string) => string;
  /** What an owner is, for messages ("an example source of no resource kind"). */
  readonly noun: string;
  /** Whose its examples are, for messages ("a kind's examples are ..."). */
  readonly whose: string;
}

/**
 * The groups of examples that have owners, by their folder under docs/examples, where an example's
 * programs go to `<group>/<owner>/<name>`: a resource kind's and a function's.
 */
export const OWNED_EXAMPLE_GROUPS = {
  resources: {
    owners: RESOURCE_KIND_NAMES,
    sources: "provider/resources/*/examples",
    folder: kindFolder,
    noun: "resource kind",
    whose: "a kind's",
  },
  functions: {
    owners: Object.values(FUNCTION_DEFINITIONS).map((definition) => definition.name),
    sources: "provider/functions/examples/*",
    folder: (name) => name,
    noun: "function",
    whose: "a function's",
  },
} as const satisfies Record<string, OwnedExampleGroup>;

/** Whose examples: a resource kind's or a function's. */
export type OwnedExampleGroupName = keyof typeof OWNED_EXAMPLE_GROUPS;

const OWNED_GROUP_NAMES = Object.keys(OWNED_EXAMPLE_GROUPS) as OwnedExampleGroupName[];

/** The folder of the package's own examples' sources (the README's program). */
export const PACKAGE_EXAMPLES_SOURCE = "provider/examples";

/** The group of the README's program: one example, owned by no one, in docs/examples/readme. */
const README_GROUP = "readme";

/** The README's program: provider/examples/readme.pp, whose programs go to docs/examples/readme. */
export const README_EXAMPLE: DocsExample = {
  source: `${PACKAGE_EXAMPLES_SOURCE}/readme.pp`,
  target: `${EXAMPLES_DIR}/${README_GROUP}`,
};

/**
 * Every group of examples: the folders under docs/examples that generation writes, each as a whole
 * (docs/examples/README.md is written by hand).
 */
export const EXAMPLE_GROUPS = [...OWNED_GROUP_NAMES, README_GROUP] as const;

/** The folder of an owner's example sources (`resources`, `UserRole` -> provider/resources/userRole/examples). */
export function ownerExamplesSource(group: OwnedExampleGroupName, owner: string): string {
  const { sources, folder } = OWNED_EXAMPLE_GROUPS[group];
  return sources.replace("*", folder(owner));
}

/** The example `name` of a resource kind or a function, by where its source is. */
export function docsExample(group: OwnedExampleGroupName, owner: string, name: string): DocsExample {
  return {
    source: `${ownerExamplesSource(group, owner)}/${name}.pp`,
    target: `${EXAMPLES_DIR}/${group}/${owner}/${name}`,
  };
}

/**
 * Every docs example under `root`: each `.pp` file in a kind's `examples/` folder, in a function's
 * folder under provider/functions/examples, and provider/examples/readme.pp (the README's), sorted by target.
 */
export function docsExamples(root: string): DocsExample[] {
  const owned = OWNED_GROUP_NAMES.flatMap((group) =>
    OWNED_EXAMPLE_GROUPS[group].owners.flatMap((owner) => {
      const dir = path.join(root, ownerExamplesSource(group, owner));
      return fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((file) => file.endsWith(".pp"))
            .map((file) => docsExample(group, owner, file.slice(0, -".pp".length)))
        : [];
    }),
  );
  const readme = fs.existsSync(path.join(root, README_EXAMPLE.source)) ? [README_EXAMPLE] : [];
  return [...owned, ...readme].sort((a, b) => a.target.localeCompare(b.target));
}

/** Where a `.pp` file is in an owned group's layout: in the folder of some owner, known or not. */
export interface OwnedExampleSourcePlace {
  readonly group: OwnedExampleGroupName;
  /** The owner's folder's name, as the path has it (an owner of that folder may not exist). */
  readonly folder: string;
  /** That owner's example sources' folder (as ownerExamplesSource names it, for an owner that exists). */
  readonly dir: string;
  /** The file's path below `dir`, without `.pp` (holds a `/` when the file is nested deeper). */
  readonly name: string;
}

/**
 * The place of `file` (relative to the repository's root, `/`-separated) in the owned groups' layout, or
 * undefined when it is in no owner's example sources' folder.
 */
export function ownedExampleSourcePlace(file: string): OwnedExampleSourcePlace | undefined {
  for (const group of OWNED_GROUP_NAMES) {
    const [before, after] = OWNED_EXAMPLE_GROUPS[group].sources.split("*");
    if (!file.startsWith(before)) continue;
    const end = file.indexOf("/", before.length);
    if (end <= before.length) continue;
    const folder = file.slice(before.length, end);
    const dir = `${before}${folder}${after}`;
    if (!file.startsWith(`${dir}/`)) continue;
    const name = file.slice(dir.length + 1, -".pp".length);
    return { group, folder, dir, name };
  }
  return undefined;
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

/** One generated program of an example: its language, and its path relative to the clone. */
export interface ExampleProgram {
  readonly language: (typeof EXAMPLE_LANGUAGES)[number];
  readonly file: string;
}

/** The generated program of `example` in each language, in the order of EXAMPLE_LANGUAGES. */
export function examplePrograms(example: DocsExample): ExampleProgram[] {
  return EXAMPLE_LANGUAGES.map((language) => ({
    language,
    file: `${example.target}/${language.folder}/${language.file}`,
  }));
}
