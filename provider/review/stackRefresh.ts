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

/**
 * How long a refresh has, once the check is stopped, between the signal it received (for the Pulumi CLI,
 * SIGINT or SIGTERM is a graceful cancel that waits for the running operations) and SIGTERM, then SIGKILL.
 */
export const STOP_GRACE_MS = 2_000;

/** The CLI processes running now, stopped with {@link stopRefreshes} when the check itself is stopped. */
const running = new Set<ChildProcess>();

/** Sends `signal` to the child's process group: the CLI and the plugins it started. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group has ended.
  }
}

/**
 * Stops every refresh still running (the check was stopped: SIGINT or SIGTERM): `signal` to each CLI's
 * process group, then SIGTERM after {@link STOP_GRACE_MS} and SIGKILL after as long again, for a CLI
 * still cancelling.
 */
export function stopRefreshes(signal: NodeJS.Signals): void {
  for (const child of running) {
    signalGroup(child, signal);
    const later = [
      setTimeout(() => signalGroup(child, "SIGTERM"), STOP_GRACE_MS),
      setTimeout(() => signalGroup(child, "SIGKILL"), 2 * STOP_GRACE_MS),
    ];
    child.once("close", () => later.forEach(clearTimeout));
  }
}

function runCli(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; output: string; exitCode: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    // Its own process group (detached), so that a stop reaches the plugins it starts too.
    const child = spawn("pulumi", [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
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

/**
 * The project's name, from the Pulumi.yaml (or Pulumi.yml) in `cwd`: the stacks listed and the baseline
 * are this project's.
 */
export function projectName(cwd: string): string {
  let text: string | undefined;
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    try {
      text = readFileSync(path.join(cwd, file), "utf8");
      break;
    } catch {
      // Try the other spelling.
    }
  }
  if (text === undefined) {
    throw new TypeError(`no Pulumi.yaml in ${cwd}: give --cwd the project's folder`);
  }
  const name = /^name:[ \t]*(["']?)([A-Za-z0-9_.-]+)\1[ \t]*(?:#.*)?$/m.exec(text)?.[2];
  if (name === undefined) throw new TypeError(`the Pulumi.yaml in ${cwd} has no project name (name: ...)`);
  return name;
}

/**
 * The stacks of project `project` (`pulumi stack ls --json --fully-qualify-stack-names`): a backend may
 * list other projects' stacks (a self-managed backend's legacy layout) or other organizations' (Pulumi
 * Cloud); only this project's are kept. Each by its name, or as organization/project/name when the
 * project's stacks are in more than one organization.
 */
export async function projectStacks(cwd: string, env: NodeJS.ProcessEnv, project: string): Promise<string[]> {
  const run = await runCli(
    ["stack", "ls", "--json", "--fully-qualify-stack-names", "--non-interactive"],
    cwd,
    env,
  );
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
  const qualified = listed
    .map((entry) =>
      typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined,
    )
    .filter((name): name is string => typeof name === "string")
    .map((name) => name.split("/"))
    .filter((parts) => parts.length === 3 && parts[1] === project);
  const organizations = new Set(qualified.map(([organization]) => organization));
  return qualified.map((parts) => (organizations.size > 1 ? parts.join("/") : parts[2]));
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
