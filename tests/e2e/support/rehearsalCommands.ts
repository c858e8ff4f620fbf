/**
 * How the release rehearsal runs a command (tests/e2e/support/rehearsal.ts): to its end without blocking
 * its process (the plugin and Go proxy servers answer from it), in a process group of its own that a
 * timeout ends whole, and tagged with the rehearsal's name (PROCESS_TAG_VARIABLE) whatever environment it
 * is given, so that the sweep of a killed rehearsal (rehearsalScratch.ts) finds it and what it starts.
 */
import { spawn } from "node:child_process";
import { assertNoUnexpectedErrors } from "./cliOutput";
import { PROCESS_TAG_VARIABLE } from "./harness";

/** A command's outcome: exit code, stdout and stderr together, how long it took. */
export interface Ran {
  readonly code: number | null;
  readonly output: string;
  readonly seconds: number;
}

export interface RunOptions {
  readonly input?: string;
  readonly mayFail?: boolean;
  readonly timeoutMs?: number;
}

/**
 * Runs `command args` in `cwd` with `env`; its output goes through the suite's check (cliOutput.ts);
 * unless `mayFail`, a non-zero exit throws with the output.
 */
export type RunCommand = (
  cwd: string,
  env: NodeJS.ProcessEnv,
  command: string,
  args: string[],
  options?: RunOptions,
) => Promise<Ran>;

/** The runner of the commands of the rehearsal tagged `tag`. */
export function taggedCommands(tag: string): RunCommand {
  return async (cwd, env, command, args, options = {}) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd,
      env: { ...env, [PROCESS_TAG_VARIABLE]: tag },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true,
    });
    const chunks: string[] = [];
    child.stdout!.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
    child.stderr!.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
    if (options.input !== undefined) {
      // A command that ends without reading its input closes the pipe: not this run's failure.
      child.stdin!.on("error", () => undefined);
      child.stdin!.end(options.input);
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, options.timeoutMs ?? 900_000);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (exitCode) => resolve(exitCode));
    }).finally(() => clearTimeout(timer));
    const ran = { code, output: chunks.join(""), seconds: (Date.now() - started) / 1000 };
    const shown = `${command} ${args.join(" ")}`;
    assertNoUnexpectedErrors({ command: shown, code, output: ran.output });
    if (code !== 0 && !options.mayFail)
      throw new Error(`\`${shown}\` exited ${code} in ${cwd}:\n${ran.output}`);
    return ran;
  };
}
