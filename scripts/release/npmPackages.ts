/**
 * The release's npm tarballs: this package (`pulumi-codesec`), the generated Node.js SDK
 * (`@pulumi-codesec/codesec`, compiled as Pulumi's generated SDKs are published: its bin/ with the
 * package.json), and the two workspaces (`codesec-emulator`, the policy pack `codesec-policy`), whose
 * `file:..` dependency on this package becomes the release's version. `npm pack` writes the tarballs:
 * fixed mtimes and modes, the same bytes for the same files.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** `npm pack` of the package in `packageDir` into `outDir`: the tarball's path. */
export function npmPack(packageDir: string, outDir: string): string {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", outDir], {
    cwd: packageDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  })
    .trim()
    .split("\n")
    .pop()!;
  return path.join(outDir, name);
}

/**
 * Which files of the SDK's folder `sdkDir` the packing copies: not its compiled bin/ nor any node_modules,
 * judged by the path inside the folder (the clone's own path may hold anything, e.g. /bin-clones/...).
 */
export function nativeSdkCopyFilter(sdkDir: string): (src: string) => boolean {
  return (src) => {
    const segments = path.relative(sdkDir, src).split(path.sep);
    return segments[0] !== "bin" && !segments.includes("node_modules");
  };
}

/**
 * The generated Node.js SDK (sdk/nodejs) compiled in `workDir` (tsc into bin/, the package.json and
 * README beside it) and packed into `outDir`: the tarball. Its @pulumi/pulumi and @types/node are the
 * repository's (the folder has no node_modules of its own).
 */
export function packNativeSdk(root: string, workDir: string, outDir: string): string {
  const sdkDir = path.join(root, "sdk/nodejs");
  cpSync(sdkDir, workDir, { recursive: true, filter: nativeSdkCopyFilter(sdkDir) });
  symlinkSync(path.join(root, "node_modules"), path.join(workDir, "node_modules"), "dir");
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], {
    cwd: workDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const file of ["package.json", "README.md"]) {
    cpSync(path.join(workDir, file), path.join(workDir, "bin", file));
  }
  cpSync(path.join(root, "LICENSE"), path.join(workDir, "bin/LICENSE"));
  return npmPack(path.join(workDir, "bin"), outDir);
}

/** A workspace to publish: its folder and the files of it the package holds besides package.json. */
export interface WorkspacePackage {
  readonly folder: string;
  readonly files: readonly string[];
}

export const EMULATOR_PACKAGE: WorkspacePackage = {
  folder: "emulator",
  files: ["bin", "dist", "fixtures.example.json"],
};
/** The policy pack: `npm install` it, then `pulumi preview --policy-pack node_modules/codesec-policy`. */
export const POLICY_PACKAGE: WorkspacePackage = { folder: "policy", files: ["PulumiPolicy.yaml", "dist"] };

/**
 * The workspace's package.json as published: not private, and its dependency on this package (`file:..`
 * in the repository) the release's exact version.
 */
export function publishedManifest(
  manifest: Record<string, unknown>,
  version: string,
): Record<string, unknown> {
  const { private: _private, ...published } = manifest;
  const dependencies = { ...(manifest.dependencies as Record<string, string> | undefined) };
  if ("pulumi-codesec" in dependencies) dependencies["pulumi-codesec"] = version;
  return { ...published, dependencies };
}

/** A workspace staged in `workDir` (its files, its published package.json, the licence) and packed. */
export function packWorkspace(
  root: string,
  workspace: WorkspacePackage,
  version: string,
  workDir: string,
  outDir: string,
): string {
  const from = path.join(root, workspace.folder);
  for (const file of workspace.files)
    cpSync(path.join(from, file), path.join(workDir, file), { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(from, "package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  writeFileSync(
    path.join(workDir, "package.json"),
    `${JSON.stringify(publishedManifest(manifest, version), null, 2)}\n`,
  );
  cpSync(path.join(root, "LICENSE"), path.join(workDir, "LICENSE"));
  return npmPack(workDir, outDir);
}
