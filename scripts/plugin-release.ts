/**
 * The release archive of the native provider plugin, as `pulumi plugin install` takes it:
 * `pulumi-resource-codesec-v<version>-<os>-<arch>.tar.gz` holding
 *
 * - `pulumi-resource-codesec.js`: the plugin (provider/native/main.ts) bundled by esbuild with everything
 *   it loads (the kinds, the client, @grpc/grpc-js, the protocol's definitions), its version, its schema and
 *   the hash of the sources it was built from (`CODESEC_PLUGIN_BUILD`, see provider/native/packageFiles.ts);
 * - `pulumi-resource-codesec`: a launcher that runs it with the `node` on PATH (22 or later);
 * - `LICENSE`.
 *
 * The bundle is JavaScript, the same for every platform; only the archive's name says which platform it is
 * for (the CLI installs an archive under the name it is given). A Node single executable application was
 * measured and not taken: docs/native-provider.md, "Packaging".
 *
 *   node -r ts-node/register/transpile-only scripts/plugin-release.ts [--out <dir>] [--os linux|darwin] [--arch amd64|arm64]
 *     writes the archive (default: release/, this platform) and prints its path and the build hash its
 *     bundle carries, separated by a tab (the bundle is made once: its one esbuild run gives the hash too)
 *   node -r ts-node/register/transpile-only scripts/plugin-release.ts --build-hash
 *     prints the hash of the tree's sources that a bundle built now would carry
 */
import { createHash, type Hash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildSync, version as esbuildVersion, type BuildOptions, type Metafile } from "esbuild";
import { create as createTar } from "tar";
import { SCHEMA_PATH, packageVersion as versionIn } from "./schema/location";

const root = path.resolve(__dirname, "..");
const ENTRY = "provider/native/main.ts";
const TSCONFIG = "tsconfig.json";
export const PLUGIN_NAME = "pulumi-resource-codesec";

/** The platforms a release archive is made for (the launcher is a POSIX shell script). */
const OPERATING_SYSTEMS = ["linux", "darwin"] as const;
const ARCHITECTURES = ["amd64", "arm64"] as const;

/** How the bundle is made; the same options for the hash's pass and the bundle's. */
const BUNDLE_OPTIONS: BuildOptions = {
  absWorkingDir: root,
  entryPoints: [ENTRY],
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  // Less to parse at each start (a third of the size); names kept, so a stack frame still names a function.
  minifyWhitespace: true,
  minifySyntax: true,
  // Only a clone's build resolves the package by name (packageFiles.ts); the bundle embeds what it reads.
  external: ["pulumi-codesec", "pulumi-codesec/*"],
  logLevel: "error",
};

/**
 * Runs esbuild with the bundle's options, saying so on stderr (`[plugin-release] esbuild: ...`) unless
 * `quiet`: a set-up bundles the plugin once, and tests count these lines to keep it so.
 */
function esbuild(options: BuildOptions, why: string, quiet = false): ReturnType<typeof buildSync> {
  if (!quiet) process.stderr.write(`[plugin-release] esbuild: ${ENTRY} (${why})\n`);
  return buildSync({ ...BUNDLE_OPTIONS, ...options });
}

/** The package's version, which the plugin, the schema and every generated SDK carry. */
export function packageVersion(): string {
  return versionIn(root);
}

/**
 * The hash a bundle built from the tree now carries: sha256 of the version, esbuild's version and options,
 * the schema, tsconfig.json, the launcher's text and every file the bundle is made of (its path and
 * content, node_modules included), as esbuild resolves them.
 */
export function treeBuildHash(): string {
  const { metafile } = esbuild({ write: false, metafile: true }, "the inputs of the build hash");
  return buildHashOf(metafile!);
}

/**
 * The bundle's options as the build hash digests them: without the clone's own folder, so that the same
 * sources give the same hash wherever they are checked out (a bench's clone and a release runner's).
 */
function hashedBundleOptions(): string {
  const { absWorkingDir: _clonePath, ...options } = BUNDLE_OPTIONS;
  return JSON.stringify(options);
}

/**
 * An input of esbuild's metafile as the build hash names it: relative to the clone's root, and a package
 * reached through a linked node_modules (outside the root) by its path from that node_modules, as a clone
 * with its own node_modules names it.
 */
export function hashedInputName(input: string): string {
  if (!input.startsWith("../")) return input;
  const at = input.indexOf("/node_modules/");
  if (at < 0)
    throw new Error(`the plugin's bundle reads ${input}, outside the clone and outside node_modules`);
  return input.slice(at + 1);
}

/** The build hash (see treeBuildHash) of a bundle esbuild made of `metafile`'s inputs. */
function buildHashOf(metafile: Metafile): string {
  const hash = createHash("sha256");
  hash.update(`version ${packageVersion()}\n`);
  hash.update(`esbuild ${esbuildVersion} ${hashedBundleOptions()}\n`);
  hash.update(readFileSync(path.join(root, SCHEMA_PATH)));
  // What esbuild reads besides the sources (tsconfig.json's compiler options), and the launcher's text.
  hash.update(`\n${TSCONFIG}\n`);
  hash.update(readFileSync(path.join(root, TSCONFIG)));
  hash.update(`\nlauncher\n${launcher(packageVersion())}`);
  // The bundle's own run lists its define as an input (`<define:CODESEC_PLUGIN_BUILD>`): what it embeds, not
  // a file of the tree.
  const inputs = Object.keys(metafile.inputs).filter((input) => !input.startsWith("<define:"));
  hashNamedFiles(
    hash,
    inputs.map((input) => ({ name: hashedInputName(input), file: path.join(root, input) })),
  );
  return `sha256:${hash.digest("hex")}`;
}

/**
 * Adds each file to `hash` as the build hash digests sources: sorted by name, each its name (a path
 * relative to the clone's root) on a line of its own, then its content.
 */
function hashNamedFiles(hash: Hash, files: readonly { name: string; file: string }[]): void {
  for (const { name, file } of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    hash.update(`\n${name}\n`);
    hash.update(readFileSync(file));
  }
}

/** hashNamedFiles of files relative to `base`, each named by that relative path. */
export function hashFiles(hash: Hash, base: string, files: readonly string[]): void {
  hashNamedFiles(
    hash,
    files.map((file) => ({ name: file, file: path.join(base, file) })),
  );
}

/**
 * Stands in for the build hash while the bundle is made: the hash is of the files esbuild read, known
 * only once it has read them, so the one run carries this and the hash then takes its place (the same
 * length, in the banner and the embedded build info).
 */
const BUILD_PLACEHOLDER = `sha256:${"build-hash-".repeat(6).slice(0, 64)}`;

/** How a test bundles the plugin; the release takes the defaults. */
export interface BundleOptions {
  /** No `[plugin-release] esbuild: ...` line on stderr (a test that bundles is no set-up to count). */
  quiet?: boolean;
}

/**
 * Writes the bundle to `outfile`, carrying the version, the schema and the tree's build hash, from one
 * esbuild run: its metafile gives the inputs the hash is made of.
 */
export function bundlePlugin(outfile: string, options: BundleOptions = {}): { build: string } {
  const embedded = {
    version: packageVersion(),
    schema: readFileSync(path.join(root, SCHEMA_PATH), "utf8"),
    build: BUILD_PLACEHOLDER,
  };
  const { metafile, outputFiles } = esbuild(
    {
      outfile,
      write: false,
      metafile: true,
      define: { CODESEC_PLUGIN_BUILD: JSON.stringify(embedded) },
      banner: {
        js: `// ${PLUGIN_NAME} ${embedded.version} (${BUILD_PLACEHOLDER}), bundled by scripts/plugin-release.ts`,
      },
    },
    "the bundle",
    options.quiet,
  );
  const build = buildHashOf(metafile!);
  // One output, the bundle (no source map, no chunk): taken as such, not by its path, which esbuild may
  // give resolved through a symbolic link (a temporary directory under /var on macOS, /tmp elsewhere).
  if (outputFiles?.length !== 1) {
    throw new Error(`esbuild gave ${outputFiles?.length ?? 0} output files for the bundle, not one`);
  }
  const text = outputFiles[0].text;
  const parts = text.split(BUILD_PLACEHOLDER);
  if (parts.length !== 3) {
    throw new Error(`the bundle carries the build placeholder ${parts.length - 1} times, not twice`);
  }
  writeFileSync(outfile, parts.join(build));
  return { build };
}

/**
 * The launcher's lines that keep V8's code cache of the plugin (Node's compile cache, Node 22.1 and later)
 * in `.node-compile-cache` beside the code it caches (`$dir`, the launcher's folder; the clone's launcher
 * sets it to the clone's .tools/, since npm pack ships dist/),
 * unless NODE_COMPILE_CACHE already names a folder; Node's own opt-out, NODE_DISABLE_COMPILE_CACHE=1, still
 * wins. Beside the code, not in the shared temporary folder Node would pick: the plugin's folder belongs to
 * the user who installed it (another account cannot plant code there), and the cache goes with the plugin
 * when it is removed. Where the folder cannot be written, Node runs without a cache. Compiling the 1.6 MB
 * bundle is a third of the plugin's start-up CPU; from the second start on it is read back (the plugin
 * flushes the cache once it serves: main.ts). The clone's launcher (provider/cmd/pulumi-resource-codesec)
 * carries the same lines; a test keeps them in step.
 */
export const COMPILE_CACHE_LINES = `if [ -z "\${NODE_COMPILE_CACHE:-}" ]; then
  NODE_COMPILE_CACHE="$dir/.node-compile-cache"
  export NODE_COMPILE_CACHE
fi`;

/** The launcher in the archive: the bundle beside it, on the `node` of PATH or of PULUMI_CODESEC_NODE. */
function launcher(version: string): string {
  return `#!/bin/sh
# ${PLUGIN_NAME} ${version}, the codesec provider plugin: Node.js 22 or later (the \`node\` on PATH, or the
# one PULUMI_CODESEC_NODE names) running the bundle beside this launcher. The engine starts it with its own
# address as the first argument and reads the port it serves on from its first line of output.
set -e
if [ -n "\${PULUMI_CODESEC_NODE:-}" ]; then
  node=$PULUMI_CODESEC_NODE
  whence="PULUMI_CODESEC_NODE"
else
  node=node
  whence="the 'node' on PATH"
fi
if ! command -v "$node" >/dev/null 2>&1; then
  echo "${PLUGIN_NAME} needs Node.js 22 or later: no '$node' ($whence; set PULUMI_CODESEC_NODE to a node executable)" >&2
  exit 1
fi
# \`node --version\` answers before the runtime starts: a cheap check that names the node it found.
running=$("$node" --version 2>/dev/null || true)
major=\${running#v}
major=\${major%%.*}
case "$major" in
  ''|*[!0-9]*) major=0 ;;
esac
if [ "$major" -lt 22 ]; then
  echo "${PLUGIN_NAME} needs Node.js 22 or later: $(command -v "$node") ($whence) is \${running:-not a node executable}; put a newer node first on PATH or set PULUMI_CODESEC_NODE to one" >&2
  exit 1
fi
dir=$(dirname "$(readlink -f "$0" 2>/dev/null || printf '%s' "$0")")
${COMPILE_CACHE_LINES}
exec "$node" "$dir/${PLUGIN_NAME}.js" "$@"
`;
}

/** The archive's files and their modes. */
const ARCHIVE_MODES: Readonly<Record<string, number>> = {
  LICENSE: 0o644,
  [PLUGIN_NAME]: 0o755,
  [`${PLUGIN_NAME}.js`]: 0o644,
};

/**
 * node-tar's options for an archive that the same files make byte for byte on any machine: `portable`
 * leaves out owner ids and names, device and inode numbers, atime and ctime, and sets gzip's OS byte to
 * 255 ("unknown"); every mtime is 0; gzip's header carries no name and time 0. With the files' modes set
 * by chmod and their names sorted, nothing of the machine or the umask is left in the bytes.
 */
const REPRODUCIBLE_TAR = { gzip: { level: 9 }, portable: true, mtime: new Date(0), sync: true } as const;

/** This machine's platform in the archive's words (Go's GOOS and GOARCH, as the CLI names plugins). */
export function hostPlatform(): { os: string; arch: string } {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  return { os: process.platform, arch };
}

/** The archive's file name. */
export function tarballName(version: string, platform: { os: string; arch: string }): string {
  return `${PLUGIN_NAME}-v${version}-${platform.os}-${platform.arch}.tar.gz`;
}

/** Makes the release archive in `outDir` and returns its path and the build hash it carries. */
export function releaseTarball(
  outDir: string,
  platform: { os: string; arch: string } = hostPlatform(),
): { tarball: string; build: string } {
  if (!(OPERATING_SYSTEMS as readonly string[]).includes(platform.os)) {
    throw new Error(
      `no release archive for ${platform.os}: the launcher is a POSIX shell script (${OPERATING_SYSTEMS.join(", ")})`,
    );
  }
  if (!(ARCHITECTURES as readonly string[]).includes(platform.arch)) {
    throw new Error(`no release archive for architecture ${platform.arch} (${ARCHITECTURES.join(", ")})`);
  }
  const version = packageVersion();
  const staging = mkdtempSync(path.join(os.tmpdir(), "codesec-plugin-release-"));
  try {
    const bundle = path.join(staging, `${PLUGIN_NAME}.js`);
    const { build } = bundlePlugin(bundle);
    mkdirSync(outDir, { recursive: true });
    const tarball = path.join(path.resolve(outDir), tarballName(version, platform));
    writeFileSync(path.join(staging, PLUGIN_NAME), launcher(version));
    copyFileSync(path.join(root, "LICENSE"), path.join(staging, "LICENSE"));
    // chmod, unlike the mode given at writing, does not go through the umask.
    for (const [name, mode] of Object.entries(ARCHIVE_MODES)) chmodSync(path.join(staging, name), mode);
    createTar({ ...REPRODUCIBLE_TAR, cwd: staging, file: tarball }, Object.keys(ARCHIVE_MODES).sort());
    return { tarball, build };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.includes("--build-hash")) {
    process.stdout.write(`${treeBuildHash()}\n`);
  } else {
    const host = hostPlatform();
    const { tarball, build } = releaseTarball(option(args, "--out") ?? path.join(root, "release"), {
      os: option(args, "--os") ?? host.os,
      arch: option(args, "--arch") ?? host.arch,
    });
    process.stdout.write(`${tarball}\t${build}\n`);
  }
}
