/**
 * `npm run release`: every artifact of a release, from a clean tree whose versions agree, into
 * release/v<version>/ (package.json's version):
 *
 *   pulumi-codesec-<v>.tgz, pulumi-codesec-codesec-<v>.tgz, codesec-emulator-<v>.tgz, codesec-policy-<v>.tgz
 *                                         npm tarballs (scripts/release/npmPackages.ts)
 *   pulumi_codesec-<v>.tar.gz, pulumi_codesec-<v>-py3-none-any.whl
 *                                         the Python SDK (scripts/release/python.ts)
 *   go/github.com/pulumi-codesec/pulumi-codesec/sdk/go/@v/v<v>.{info,mod,zip}, list
 *                                         the Go SDK's module, GOPROXY layout (scripts/release/goModule.ts)
 *   pulumi-resource-codesec-v<v>-{linux,darwin}-{amd64,arm64}.tar.gz
 *                                         the plugin archives (scripts/plugin-release.ts)
 *   <artifact>.cdx.json                   an SBOM per npm package and Python distribution
 *   provenance.intoto.json                in-toto / SLSA v1 provenance of every artifact above
 *   SHA256SUMS                            every file above
 *
 * It refuses a dirty tree, versions that disagree, and docs/performance.md measured on other provider,
 * plugin or SDK sources than the release's (scripts/release/performanceFreshness.ts);
 * `npm run release -- --allow-stale-performance` builds anyway, for a rehearsal or a test, and its
 * provenance marks it not publishable.
 *
 * Two runs on one commit write the same bytes. Everything is written into release/.v<version>.partial
 * first and moved into place only once complete: a refused or failed release leaves no release/v<version>
 * half-written (an earlier complete one stays until a new one replaces it).
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostPlatform, releaseTarball } from "./plugin-release";
import { headCommit, uncommittedFiles } from "./release/gitTree";
import { goModuleTag, writeGoModule } from "./release/goModule";
import {
  EMULATOR_PACKAGE,
  packNativeSdk,
  packWorkspace,
  POLICY_PACKAGE,
  npmPack,
  publishedManifest,
} from "./release/npmPackages";
import { measuredSourcesDigest } from "./measuredSources";
import {
  ALLOW_STALE_PERFORMANCE,
  PERFORMANCE_PAGE,
  releaseOptions,
  stalePerformance,
  type ReleaseOptions,
} from "./release/performanceFreshness";
import { checksums, provenanceStatement, sha256Of } from "./release/provenance";
import { buildPythonDistributions, PYTHON_BUILD_REQUIREMENTS } from "./release/python";
import { npmPackageBom, npmTreeBom, pythonDistributionBom } from "./release/sbom";
import { disagreeingVersions, releaseVersion } from "./release/versions";

const ROOT = path.resolve(__dirname, "..");

/** The platforms of the plugin archives. */
export const PLUGIN_PLATFORMS = [
  { os: "linux", arch: "amd64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
] as const;

/** A release that must not be made: the message says why and what to do. */
export class ReleaseRefused extends Error {}

function log(message: string): void {
  process.stderr.write(`[release] ${message}\n`);
}

/**
 * Refuses a dirty tree, versions that disagree, or docs/performance.md measured on other sources than the
 * release's (unless `--allow-stale-performance`), naming the files.
 */
export function checkReleasable(root: string, options: ReleaseOptions): string {
  const version = releaseVersion(root);
  const problems: string[] = [];
  const page = path.join(root, PERFORMANCE_PAGE);
  if (!existsSync(page)) {
    // Not a figure gone stale but a page gone: no flag builds without it.
    throw new ReleaseRefused(
      `npm run release refused: ${PERFORMANCE_PAGE} is missing. Run the bench on this commit ` +
        "(`npm run bench`, then `npm run bench:report`, which writes it), or restore it from git " +
        `(\`git checkout -- ${PERFORMANCE_PAGE}\`).`,
    );
  }
  const stale = stalePerformance(readFileSync(page, "utf8"), measuredSourcesDigest());
  if (stale && !options.allowStalePerformance) problems.push(stale);
  if (stale && options.allowStalePerformance)
    log(`building anyway (${ALLOW_STALE_PERFORMANCE}; the provenance says so): ${stale}`);
  const disagreeing = disagreeingVersions(root, version);
  if (disagreeing.length > 0) {
    problems.push(
      `versions disagree with package.json's ${version}: ` +
        disagreeing.map((site) => `${site.file} (${site.field} ${site.version ?? "missing"})`).join(", ") +
        ". Set the version in package.json, then run `npm run generate` (schema and SDKs) and set it in " +
        "emulator/package.json and policy/package.json.",
    );
  }
  const dirty = uncommittedFiles(root);
  if (dirty.length > 0) {
    problems.push(
      `the tree has uncommitted changes: ${dirty.join(", ")}. A release is made from a commit: commit or stash them.`,
    );
  }
  if (problems.length > 0) throw new ReleaseRefused(`npm run release refused: ${problems.join("\n")}`);
  return version;
}

function toolVersions(): Record<string, string> {
  const version = (command: string, args: string[]): string =>
    execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  return {
    node: process.version,
    npm: version("npm", ["--version"]),
    go: version("go", ["env", "GOVERSION"]),
    python: version("python3", ["--version"]),
    pythonBuild: PYTHON_BUILD_REQUIREMENTS.join(" "),
  };
}

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const child = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? filesUnder(dir, child) : [child];
    })
    .sort();
}

function manifestOf(root: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;
}

/** A manifest's runtime dependencies' names (peer dependencies that are not optional included). */
function dependencyNames(manifest: Record<string, unknown>): string[] {
  const optional = (manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
  return [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optional[name]?.optional),
  ].sort();
}

/** The Python distribution's declared requirements, from pyproject.toml's [project] dependencies. */
function pythonRequirements(root: string): string[] {
  const text = readFileSync(path.join(root, "sdk/python/pyproject.toml"), "utf8");
  const list = text.match(/^\s*dependencies\s*=\s*\[(.*)\]\s*$/m)?.[1] ?? "";
  return [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1].replace(/\\"/g, '"'));
}

/** Makes the release of the tree at `root` into `staging`. */
function build(root: string, version: string, staging: string, work: string, options: ReleaseOptions): void {
  const commit = headCommit(root);
  log(`building ${version} from ${commit.sha}`);
  execFileSync("bash", [path.join(root, "scripts/build.sh")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });

  log("npm tarballs");
  const npmWork = (name: string) => mkdtempSync(path.join(work, `${name}-`));
  const tarballs = {
    "pulumi-codesec": npmPack(root, staging),
    "@pulumi-codesec/codesec": packNativeSdk(root, npmWork("sdk-nodejs"), staging),
    "codesec-emulator": packWorkspace(root, EMULATOR_PACKAGE, version, npmWork("emulator"), staging),
    "codesec-policy": packWorkspace(root, POLICY_PACKAGE, version, npmWork("policy"), staging),
  };

  log("Python sdist and wheel (python -m build)");
  const python = buildPythonDistributions(root, commit.epochSeconds, work, staging);

  log(`Go module ${goModuleTag(version)} (golang.org/x/mod/zip)`);
  writeGoModule(root, version, commit, work, path.join(staging, "go"));

  log(`plugin archives: ${PLUGIN_PLATFORMS.map((p) => `${p.os}-${p.arch}`).join(", ")}`);
  for (const platform of PLUGIN_PLATFORMS) releaseTarball(staging, platform);

  log("SBOMs (npm sbom, CycloneDX)");
  const manifests = {
    "pulumi-codesec": manifestOf(root, "package.json"),
    "@pulumi-codesec/codesec": manifestOf(root, "sdk/nodejs/package.json"),
    "codesec-emulator": publishedManifest(manifestOf(root, "emulator/package.json"), version),
    "codesec-policy": publishedManifest(manifestOf(root, "policy/package.json"), version),
  };
  const own = new Map(Object.entries(manifests).map(([name, manifest]) => [name, dependencyNames(manifest)]));
  const tree = npmTreeBom(root);
  for (const [name, tarball] of Object.entries(tarballs)) {
    const manifest = manifests[name as keyof typeof manifests];
    const bom = npmPackageBom(
      tree,
      {
        name,
        version,
        dependencyNames: own.get(name)!,
        sha256: sha256Of(tarball),
        license: String(manifest.license),
      },
      own,
      commit.isoTime,
    );
    writeFileSync(`${tarball}.cdx.json`, bom);
  }
  for (const file of [python.sdist, python.wheel]) {
    const bom = pythonDistributionBom(
      { name: "pulumi_codesec", version, dependencyNames: [], sha256: sha256Of(file), license: "Apache-2.0" },
      path.basename(file),
      pythonRequirements(root),
      commit.isoTime,
    );
    writeFileSync(`${file}.cdx.json`, bom);
  }

  log("provenance and SHA256SUMS");
  const artifacts = filesUnder(staging);
  writeFileSync(
    path.join(staging, "provenance.intoto.json"),
    provenanceStatement(staging, artifacts, version, commit, toolVersions(), process.env, options),
  );
  writeFileSync(path.join(staging, "SHA256SUMS"), checksums(staging, filesUnder(staging)));

  const changed = uncommittedFiles(root);
  if (changed.length > 0)
    throw new Error(`the release's build changed files of the tree: ${changed.join(", ")}`);
}

/** Makes the release into release/v<version>/ and returns that folder. */
export function release(
  root: string = ROOT,
  options: ReleaseOptions = { allowStalePerformance: false },
): string {
  const version = checkReleasable(root, options);
  const releases = path.join(root, "release");
  const target = path.join(releases, `v${version}`);
  const staging = path.join(releases, `.v${version}.partial`);
  const work = mkdtempSync(path.join(os.tmpdir(), "codesec-release-"));
  const cleanUp = () => {
    rmSync(staging, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    cleanUp();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    build(root, version, staging, work, options);
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return target;
  } finally {
    cleanUp();
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}

/** The command line's options; an unknown argument is a refusal, not a crash. */
function commandLineOptions(): ReleaseOptions {
  try {
    return releaseOptions(process.argv.slice(2));
  } catch (error) {
    throw new ReleaseRefused((error as Error).message);
  }
}

if (require.main === module) {
  try {
    const target = release(ROOT, commandLineOptions());
    const files = filesUnder(target);
    const size = files.reduce((total, file) => total + statSync(path.join(target, file)).size, 0);
    log(
      `wrote ${path.relative(process.cwd(), target) || "."}: ${files.length} files, ${(size / 1e6).toFixed(1)} MB (host ${hostPlatform().os}-${hostPlatform().arch})`,
    );
    process.stdout.write(`${target}\n`);
  } catch (error) {
    process.stderr.write(
      `${error instanceof ReleaseRefused ? error.message : ((error as Error).stack ?? String(error))}\n`,
    );
    process.exit(1);
  }
}
