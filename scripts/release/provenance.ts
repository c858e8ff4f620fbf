/**
 * The release's checksums and its provenance statement. SHA256SUMS: one `<sha256>  <path>` line per
 * file, sorted by path, as `sha256sum -c` reads them. The provenance: an in-toto Statement (v1) whose
 * subjects are every artifact and whose predicate is SLSA Provenance v1: the source commit, the build's
 * parameters (with `allowStalePerformance` and `publishable: false` for a build that did not check
 * docs/performance.md), the builder (the GitHub Actions workflow run on CI, this machine otherwise). CI signs it as
 * an attestation on a real release (.github/workflows/release.yml); it carries no time, so that two runs
 * on one commit write the same bytes.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { SourceCommit } from "./gitTree";
import { ALLOW_STALE_PERFORMANCE, type ReleaseOptions } from "./performanceFreshness";

export const REPOSITORY_URL = "https://github.com/pulumi-codesec/pulumi-codesec";
/** What a build of this type does: `npm run release` at the commit, as docs/release.md describes. */
export const BUILD_TYPE = `${REPOSITORY_URL}/blob/main/docs/release.md#npm-run-release`;

export function sha256Of(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** SHA256SUMS's text for `files` (paths relative to `dir`). */
export function checksums(dir: string, files: readonly string[]): string {
  return [...files]
    .sort()
    .map((file) => `${sha256Of(path.join(dir, file))}  ${file}\n`)
    .join("");
}

/** Who built it: the workflow run on GitHub Actions, else this machine's `npm run release`. */
function builder(env: NodeJS.ProcessEnv): { id: string; invocationId?: string } {
  if (env.GITHUB_ACTIONS === "true" && env.GITHUB_WORKFLOW_REF) {
    const server = env.GITHUB_SERVER_URL ?? "https://github.com";
    return {
      id: `${server}/${env.GITHUB_WORKFLOW_REF}`,
      invocationId: `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}/attempts/${env.GITHUB_RUN_ATTEMPT ?? "1"}`,
    };
  }
  return { id: "local:npm-run-release" };
}

/** The provenance statement's text for the artifacts (paths relative to `dir`). */
export function provenanceStatement(
  dir: string,
  files: readonly string[],
  version: string,
  commit: SourceCommit,
  tools: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
  options: ReleaseOptions = { allowStalePerformance: false },
): string {
  const { id, invocationId } = builder(env);
  const statement = {
    _type: "https://in-toto.io/Statement/v1",
    subject: [...files]
      .sort()
      .map((file) => ({ name: file, digest: { sha256: sha256Of(path.join(dir, file)) } })),
    predicateType: "https://slsa.dev/provenance/v1",
    predicate: {
      buildDefinition: {
        buildType: BUILD_TYPE,
        externalParameters: options.allowStalePerformance
          ? {
              version,
              command: `npm run release -- ${ALLOW_STALE_PERFORMANCE}`,
              allowStalePerformance: true,
              // Its docs/performance.md may not hold for it: a rehearsal's or a test's build.
              publishable: false,
            }
          : { version, command: "npm run release" },
        internalParameters: tools,
        resolvedDependencies: [
          { uri: `git+${REPOSITORY_URL}@v${version}`, digest: { gitCommit: commit.sha } },
        ],
      },
      runDetails: { builder: { id }, metadata: invocationId ? { invocationId } : {} },
    },
  };
  return `${JSON.stringify(statement, null, 2)}\n`;
}
