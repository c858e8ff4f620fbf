/**
 * Lint check of the examples as a user copies them out of the repository: each `examples/<name>/`
 * package.json asks for a pulumi-codesec range that the package's own version satisfies (so a release
 * that forgets to move the examples fails lint), and for the versions of its other dependencies that
 * this repository is locked to and tests with; each tsconfig.json type-checks the libraries it uses
 * (no `skipLibCheck`, which would hide a typing of this package that does not compile for users).
 *
 *   node -r ts-node/register/transpile-only scripts/examples-check.ts    prints the problems; exit 1 if any
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as semver from "semver";

/**
 * Whether `version` satisfies `range`, read as npm reads it (node-semver, npm's own). Undefined when
 * `range` is not a semver range (a dist-tag, a URL): a problem of its own, reported as such.
 */
export function satisfies(version: string, range: string): boolean | undefined {
  if (semver.validRange(range) === null) return undefined;
  return semver.satisfies(version, range);
}

interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/** The version this repository is locked to for `name` (package-lock.json), if it has it. */
function lockedVersion(root: string, name: string): string | undefined {
  const lock = path.join(root, "package-lock.json");
  if (!existsSync(lock)) return undefined;
  const packages = readJson<{ packages?: Record<string, { version?: string }> }>(lock).packages ?? {};
  return packages[`node_modules/${name}`]?.version;
}

/**
 * The release of this package that introduced each of its bins. An example workflow that calls a bin must
 * ask for at least that release: an older one has no such bin in node_modules/.bin.
 */
export const BIN_INTRODUCED_IN: Readonly<Record<string, string>> = {
  "codesec-review": "0.5.0",
  "codesec-drift": "0.5.0",
};

/** The bins of this package that the example's workflows call (by name, anywhere in the file). */
function binsCalled(dir: string, bins: readonly string[]): string[] {
  const workflows = path.join(dir, ".github/workflows");
  if (!existsSync(workflows)) return [];
  const text = readdirSync(workflows)
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => readFileSync(path.join(workflows, file), "utf8"))
    .join("\n");
  return bins.filter((bin) => new RegExp(`(^|[^\\w-])${bin}([^\\w-]|$)`, "m").test(text));
}

/** Every problem of the examples under `root`/examples, one line each (none: they are as they should be). */
export function exampleProblems(root: string): string[] {
  const own = readJson<Manifest & { name: string; version: string }>(path.join(root, "package.json"));
  const examples = path.join(root, "examples");
  const problems: string[] = [];
  for (const name of readdirSync(examples).sort()) {
    const dir = path.join(examples, name);
    const manifestFile = path.join(dir, "package.json");
    if (!existsSync(manifestFile)) continue;
    const where = `examples/${name}`;
    const manifest = readJson<Manifest>(manifestFile);
    const deps = { ...manifest.dependencies, ...manifest.devDependencies };
    if (!deps[own.name]) problems.push(`${where}/package.json does not depend on ${own.name}`);
    for (const [dep, range] of Object.entries(deps)) {
      const version = dep === own.name ? own.version : lockedVersion(root, dep);
      if (!version) continue; // not a package this repository tests with
      const ok = satisfies(version, range);
      if (ok === undefined) {
        problems.push(`${where}/package.json: ${dep} "${range}" is not a semver range`);
      } else if (!ok) {
        const source =
          dep === own.name ? "the version in package.json" : "the version package-lock.json holds";
        problems.push(`${where}/package.json: ${dep} "${range}" does not include ${version}, ${source}`);
      }
    }
    const ownRange = deps[own.name];
    const minimum =
      ownRange === undefined || !semver.validRange(ownRange) ? null : semver.minVersion(ownRange);
    for (const bin of binsCalled(dir, Object.keys(BIN_INTRODUCED_IN))) {
      if (minimum !== null && semver.lt(minimum, BIN_INTRODUCED_IN[bin])) {
        problems.push(
          `${where}: a workflow calls ${bin}, which ${own.name} has since ${BIN_INTRODUCED_IN[bin]}, but package.json accepts ${own.name} "${ownRange}"`,
        );
      }
    }
    const tsconfig = path.join(dir, "tsconfig.json");
    if (existsSync(tsconfig)) {
      const options = readJson<{ compilerOptions?: Record<string, unknown> }>(tsconfig).compilerOptions ?? {};
      if ("skipLibCheck" in options) {
        problems.push(
          `${where}/tsconfig.json sets skipLibCheck: the examples type-check the libraries they use`,
        );
      }
    }
  }
  return problems;
}

if (require.main === module) {
  const problems = exampleProblems(path.resolve(__dirname, ".."));
  for (const problem of problems) console.error(`examples-check: ${problem}`);
  if (problems.length > 0) process.exit(1);
}
