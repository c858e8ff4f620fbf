/**
 * What a user waits for to install the release and run a first program, per language, next to the same
 * program run from a clone of this repository. The release rehearsal's set-up (tests/e2e/support/
 * rehearsal.ts) publishes the release the bench made (support/releasedCopy.ts) to registries on 127.0.0.1
 * as the release workflow does; then each of its projects (tests/e2e/support/rehearsalProjects.ts) runs
 * for a fresh user twice, interleaved, repetition by repetition:
 *
 * - installed from the registries: `npm install` from Verdaccio, `pip install` from pypiserver, `go get`
 *   and `go mod tidy` through the module proxy (YAML installs nothing), then the first `pulumi up`, in
 *   which the CLI downloads and installs the plugin from the release's download server;
 * - from a clone, as the e2e and README programs run (tests/e2e/support/harness.ts, languagePrograms.ts):
 *   the packed package or native SDK installed from its tarball (the rest from Verdaccio), the set-up's
 *   Python virtual environment, the Go SDK's module replaced by the clone's sdk/go, and the clone's plugin
 *   launcher first on PATH; then the first `pulumi up`. The clone's own set-up (`npm run setup`, its
 *   builds) is not counted: a contributor pays it once.
 *
 * Both sides then run the rehearsal's no-change preview and destroy, which check what the engine did.
 * Every side is a new user: an empty PULUMI_HOME, the machine's download caches (npm's, pip's, Go's build
 * cache) shared, as the rehearsal's users share them. The smoke run (CI) runs YAML alone, once.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { nativePluginDir, packedNativeSdk, packedPackage, repoRoot } from "../tests/e2e/support/harness";
import { requirePythonVenv, venvPython } from "../tests/e2e/support/languagePrograms";
import { projectCache, startRehearsal, type Rehearsal } from "../tests/e2e/support/rehearsal";
import {
  GO_SDK_MODULE,
  PLUGIN_ARCHIVE,
  PROJECTS,
  slug,
  version,
  type Outcome,
  type Project,
} from "../tests/e2e/support/rehearsalProjects";
import type { BenchOptions } from "./support/options";
import { releasedCopy } from "./support/releasedCopy";
import { figure, type Figure } from "./support/results";
import { pairedRatios, summarized } from "./support/stats";

export const INSTALLS_COMPARISON = "install and first up";

/** The project the smoke run measures: no install of its own, the plugin downloaded by the first `up`. */
const SMOKE_PROJECT = "YAML";

/** The package each TypeScript project installs from the registry, and its tarball from the clone. */
const CLONE_TARBALLS: Record<string, () => string> = {
  "@pulumi-codesec/codesec": packedNativeSdk,
  "pulumi-codesec": packedPackage,
};

/** `project` run from a clone: the same program and stack, the clone's SDK and plugin. */
function fromClone(project: Project): Project {
  const files = { ...project.files };
  const manifest = files["package.json"];
  if (manifest !== undefined) {
    const parsed = JSON.parse(manifest) as { dependencies: Record<string, string> };
    for (const [name, tarball] of Object.entries(CLONE_TARBALLS)) {
      if (parsed.dependencies[name] !== undefined) parsed.dependencies[name] = `file:${tarball()}`;
    }
    files["package.json"] = JSON.stringify(parsed, null, 2);
  }
  const python = project.title === "Python";
  if (python) requirePythonVenv();
  return {
    title: `${project.title}, from a clone`,
    files,
    filesFor: project.filesFor,
    env: (_dir, user) => ({
      ...(project.plugin ? { PATH: `${nativePluginDir}${path.delimiter}${user.PATH}` } : {}),
      ...(python ? { PULUMI_PYTHON_CMD: venvPython } : {}),
    }),
    install:
      manifest !== undefined
        ? project.install
        : project.title === "Go"
          ? [
              ["go", "mod", "init", "rehearsal"],
              ["go", "mod", "edit", `-replace=${GO_SDK_MODULE}=${path.join(repoRoot, "sdk/go")}`],
              ["go", "mod", "tidy"],
            ]
          : [],
    installedFrom: (dir) => {
      if (manifest === undefined) return;
      const lock = readFileSync(path.join(dir, "package-lock.json"), "utf8");
      if (!Object.values(CLONE_TARBALLS).some((tarball) => lock.includes(path.basename(tarball())))) {
        throw new Error(`${project.title} from a clone: package-lock.json names no tarball of the clone`);
      }
    },
    plugin: false,
  };
}

/** How often the CLI fetched the plugin's archive from the release's download server so far. */
function pluginDownloads(rehearsal: Rehearsal): number {
  return rehearsal.downloads.requests.filter(
    (request) => request === `/releases/v${version}/${PLUGIN_ARCHIVE}`,
  ).length;
}

/**
 * Runs `project` for a new user `name` and checks where its plugin came from: downloaded once by the
 * CLI when installed from the registries, never when run from a clone.
 */
async function measured(
  rehearsal: Rehearsal,
  project: Project,
  name: string,
  downloadsPlugin: boolean,
): Promise<Outcome> {
  const before = pluginDownloads(rehearsal);
  const outcome = await rehearsal.rehearse(project, name);
  const downloads = pluginDownloads(rehearsal) - before;
  if (downloads !== (downloadsPlugin ? 1 : 0)) {
    throw new Error(
      `${project.title}: the CLI downloaded the plugin ${downloads} times in the first \`pulumi up\`, ` +
        `expected ${downloadsPlugin ? 1 : 0}`,
    );
  }
  return outcome;
}

function figuresOf(title: string, registries: Outcome[], clone: Outcome[]): Figure[] {
  const total = (outcome: Outcome) => outcome.install + outcome.up;
  const seconds = (name: string, values: number[], detail: string) =>
    figure({
      comparison: INSTALLS_COMPARISON,
      name: `${title}: ${name}`,
      unit: "s",
      ...summarized(values),
      detail,
    });
  const ratio = (name: string, ours: number[], theirs: number[], detail: string) =>
    figure({
      comparison: INSTALLS_COMPARISON,
      name: `${title}: ${name}`,
      unit: "x",
      ...summarized(pairedRatios(ours, theirs)),
      detail,
    });
  return [
    seconds(
      "install from the registries",
      registries.map((outcome) => outcome.install),
      "the project's install commands against Verdaccio, pypiserver or the Go module proxy",
    ),
    seconds(
      "first `pulumi up`, installed from the registries",
      registries.map((outcome) => outcome.up),
      "2 resources created; the CLI downloads and installs the plugin in it (but for the dynamic resources)",
    ),
    seconds(
      "install from a clone",
      clone.map((outcome) => outcome.install),
      "the clone's tarball, virtual environment or module replacement (the clone's set-up not counted)",
    ),
    seconds(
      "first `pulumi up` from a clone",
      clone.map((outcome) => outcome.up),
      "2 resources created, the clone's plugin launcher first on PATH",
    ),
    ratio(
      "install + first up, from the registries / from a clone",
      registries.map(total),
      clone.map(total),
      "paired repetition by repetition",
    ),
    ratio(
      "first up, from the registries / from a clone",
      registries.map((outcome) => outcome.up),
      clone.map((outcome) => outcome.up),
      "paired repetition by repetition",
    ),
  ];
}

/** Each language's install and first `pulumi up` from the registries and from a clone, `options.reps` times. */
export async function installFigures(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const projects = options.smoke ? PROJECTS.filter((project) => project.title === SMOKE_PROJECT) : PROJECTS;
  if (projects.length === 0) throw new Error(`the rehearsal has no ${SMOKE_PROJECT} project to measure`);
  const copy = await releasedCopy(log);
  const scratchParent = path.join(projectCache(), "bench-rehearsals");
  mkdirSync(scratchParent, { recursive: true });
  const rehearsal = await startRehearsal({ builtCopy: copy, scratchParent });
  try {
    const figures: Figure[] = [];
    for (const project of projects) {
      const clone = fromClone(project);
      const registries: Outcome[] = [];
      const cloned: Outcome[] = [];
      for (let rep = 1; rep <= options.reps; rep++) {
        const user = `${slug(project.title)}-${rep}`;
        registries.push(await measured(rehearsal, project, `registries-${user}`, project.plugin));
        cloned.push(await measured(rehearsal, clone, `clone-${user}`, false));
        const [ours, theirs] = [registries.at(-1)!, cloned.at(-1)!];
        log(
          `[bench] ${project.title}: from the registries install ${ours.install.toFixed(1)} s + up ` +
            `${ours.up.toFixed(1)} s; from a clone install ${theirs.install.toFixed(1)} s + up ${theirs.up.toFixed(1)} s`,
        );
      }
      figures.push(...figuresOf(project.title, registries, cloned));
    }
    return figures;
  } finally {
    await rehearsal.stop();
    rmSync(path.dirname(rehearsal.work), { recursive: true, force: true });
  }
}
