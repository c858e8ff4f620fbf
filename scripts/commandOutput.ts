import { execFileSync } from "node:child_process";

/**
 * A command's standard output, its input closed; a failure is an Error naming the command with what it
 * printed (the last `tailLines` lines when given), so a caller's message shows the tool's own words.
 */
export function commandOutput(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; tailLines?: number } = {},
): string {
  const { tailLines, ...spawnOptions } = options;
  try {
    return execFileSync(command, args, {
      ...spawnOptions,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failed = error as { stderr?: string; stdout?: string; message: string };
    const printed = `${failed.stderr ?? ""}${failed.stdout ?? ""}`.trim();
    const said = tailLines === undefined ? printed : printed.split("\n").slice(-tailLines).join("\n");
    throw new Error(
      `${command} ${args.join(" ")} failed:${tailLines === undefined ? " " : "\n"}${said || failed.message}`,
    );
  }
}
