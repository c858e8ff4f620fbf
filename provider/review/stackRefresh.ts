/**
 * A stack's refresh run through the Pulumi CLI, as the single-stack check documents it
 * (`PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --event-log FILE`): the CLI reads the
 * platform through the stack's own provider and config, and its event log carries the refreshed values
 * (`--json` shows none for dynamic providers). Also the stacks of a project (`pulumi stack ls --json`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** What one refresh left: its event log (empty when the CLI wrote none) and how the CLI ended. */
export interface RefreshRun {
  readonly events: string;
  /** What the CLI printed (stdout and stderr): for its error when it wrote no event log. */
  readonly cliOutput: string;
  readonly exitCode: number | null;
  /** The signal that stopped the CLI, if one did. */
  readonly signal: NodeJS.Signals | null;
}

/** Runs one stack's refresh (injected in tests, which observe how many run at once). */
export type RefreshStack = (stack: string) => Promise<RefreshRun>;

/** The CLI processes running now, stopped with {@link stopRefreshes} when the check itself is stopped. */
const running = new Set<ChildProcess>();

/** Stops every refresh still running (the check was stopped: SIGINT or SIGTERM). */
export function stopRefreshes(signal: NodeJS.Signals): void {
  for (const child of running) child.kill(signal);
}

function runCli(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; output: string; exitCode: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    let stdout = "";
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.on("error", (error) => {
      running.delete(child);
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      running.delete(child);
      resolve({ stdout, output, exitCode, signal });
    });
  });
}

/** Refreshes of stacks of the project in `cwd`, with the CLI on PATH. */
export function cliRefresh(cwd: string, env: NodeJS.ProcessEnv): RefreshStack {
  return async (stack) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "codesec-drift-"));
    try {
      const log = path.join(dir, "events.jsonl");
      const run = await runCli(
        [
          "refresh",
          "--preview-only",
          "--stack",
          stack,
          "--event-log",
          log,
          "--non-interactive",
          "--color",
          "never",
        ],
        cwd,
        { ...env, PULUMI_DEBUG_COMMANDS: "true" },
      );
      let events = "";
      try {
        events = readFileSync(log, "utf8");
      } catch {
        // No event log: the CLI stopped before the engine started; its output says why.
      }
      return { events, cliOutput: run.output, exitCode: run.exitCode, signal: run.signal };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The names of the stacks of the project in `cwd` (`pulumi stack ls --json`). */
export async function projectStacks(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const run = await runCli(["stack", "ls", "--json", "--non-interactive"], cwd, env);
  let listed: unknown;
  try {
    listed = run.exitCode === 0 ? JSON.parse(run.stdout) : undefined;
  } catch {
    listed = undefined;
  }
  if (!Array.isArray(listed)) {
    throw new StackListError(
      `could not list the project's stacks (\`pulumi stack ls --json\` in ${cwd} exited ${run.signal ?? run.exitCode})`,
      run.output,
    );
  }
  return listed
    .map((entry) =>
      typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined,
    )
    .filter((name): name is string => typeof name === "string");
}

/** The stacks could not be listed; `cliOutput` is what the CLI printed (shown redacted). */
export class StackListError extends Error {
  constructor(
    message: string,
    readonly cliOutput: string,
  ) {
    super(message);
  }
}
