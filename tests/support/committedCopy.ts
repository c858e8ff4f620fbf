/**
 * A copy of this tree committed into a repository of its own, as a release is made from: its tracked
 * files and its new files that git does not ignore (what is being tested), one commit with a fixed
 * author and date, and this clone's node_modules and .tools reached through links the copy's git ignores.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { ALLOW_STALE_PERFORMANCE } from "../../scripts/release/performanceFreshness";

const repoRoot = path.resolve(__dirname, "../..");

/** Runs git in `cwd` with a fixed identity and date (the same commit time, the same release bytes). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "release test",
      GIT_AUTHOR_EMAIL: "release@test.invalid",
      GIT_COMMITTER_NAME: "release test",
      GIT_COMMITTER_EMAIL: "release@test.invalid",
      GIT_AUTHOR_DATE: "2026-01-02T03:04:05Z",
      GIT_COMMITTER_DATE: "2026-01-02T03:04:05Z",
    },
  });
}

/** Writes the committed copy into `dir` (which may exist, empty). */
export function committedCopy(dir: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(repoRoot, file)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(dir, file));
  }
  git(dir, "init", "--quiet", "--initial-branch=main");
  appendFileSync(path.join(dir, ".git/info/exclude"), "/node_modules\n/.tools\n");
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  symlinkSync(path.join(repoRoot, ".tools"), path.join(dir, ".tools"), "dir");
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "-m", "release test");
}

/**
 * Runs `npm run release`'s script in the copy at `dir` with `args`, to its end. By default it builds
 * whatever docs/performance.md says (a test's copy is not what the bench measured): the provenance
 * records it.
 */
export function runRelease(
  dir: string,
  args: readonly string[] = [ALLOW_STALE_PERFORMANCE],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(dir, "scripts/release.ts"), ...args],
    { cwd: dir, encoding: "utf8", timeout: 600_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
