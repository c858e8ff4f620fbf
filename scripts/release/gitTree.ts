/** What the release reads from git: whether the tree is clean, and the commit it is built from. */
import { execFileSync } from "node:child_process";

function git(root: string, args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Files that differ from HEAD or are untracked and not ignored, as `git status --porcelain` names them. */
export function uncommittedFiles(root: string): string[] {
  return git(root, ["status", "--porcelain", "--untracked-files=all"])
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.slice(3));
}

/** The commit the release is built from. */
export interface SourceCommit {
  readonly sha: string;
  /** Its committer time: every timestamp the artifacts carry (SOURCE_DATE_EPOCH), so that they repeat. */
  readonly epochSeconds: number;
  readonly isoTime: string;
}

export function headCommit(root: string): SourceCommit {
  const [sha, epoch] = git(root, ["log", "-1", "--format=%H %ct", "HEAD"]).trim().split(" ");
  const epochSeconds = Number(epoch);
  return { sha, epochSeconds, isoTime: new Date(epochSeconds * 1000).toISOString().replace(".000Z", "Z") };
}
