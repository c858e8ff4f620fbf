/**
 * The release the bench measures: a committed copy of this tree (tests/support/committedCopy.ts) with a
 * node_modules of its own, as a CI checkout has after `npm ci` (the release rehearsal's), in which
 * `npm run release` ran once. Made once per bench run: the release's comparison (bench/release.ts) times
 * further runs in it, the installs' comparison (bench/installs.ts) publishes what it made.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { ALLOW_STALE_PERFORMANCE } from "../../scripts/release/performanceFreshness";
import { scratchDir } from "../../tests/e2e/support/harness";
import { ownNodeModules } from "../../tests/e2e/support/rehearsal";
import { committedCopy } from "../../tests/support/committedCopy";

/** One run of the release script: its wall seconds and each `[release]` line with when it arrived. */
export interface ReleaseRun {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly { readonly line: string; readonly at: number }[];
}

/**
 * Runs the release script in `copy` to its end (`--allow-stale-performance`: the copy is not the commit
 * docs/performance.md was measured on); a failure throws its output.
 */
export async function runReleaseScript(copy: string): Promise<ReleaseRun> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(copy, "scripts/release.ts"), ALLOW_STALE_PERFORMANCE],
    { cwd: copy, stdio: ["ignore", "pipe", "pipe"] },
  );
  const lines: { line: string; at: number }[] = [];
  let output = "";
  createInterface({ input: child.stderr }).on("line", (line) => {
    output += `${line}\n`;
    lines.push({ line, at: performance.now() });
  });
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const end = performance.now();
  if (code !== 0) throw new Error(`npm run release exited ${code}:\n${output.slice(-4000)}`);
  return { start, end, lines };
}

let made: Promise<string> | undefined;

/** The copy in which the release was made, made (once) on first use. */
export function releasedCopy(log: (line: string) => void): Promise<string> {
  made ??= (async () => {
    const copy = scratchDir("bench-release");
    committedCopy(copy);
    ownNodeModules(copy);
    log("[bench] npm run release in a committed copy of the tree (caches, the copy's first build)");
    await runReleaseScript(copy);
    return copy;
  })();
  return made;
}
