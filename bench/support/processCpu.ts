/**
 * The CPU each process of a bench stack's command used: the Pulumi program and the provider (the dynamic
 * providers' host or the native plugin), read from the lines ./processCpuPreload.js appends. Wall time
 * says which side finished first; this says whose process did the work (docs/performance.md, section 8).
 * Not counted: the shell of the native plugin's launcher, and the `node -e` that the dynamic providers'
 * launcher runs to find its host (neither is the provider's own work).
 */
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";

export type CpuRole = "program" | "provider";

/** CPU seconds per role of one command, and how many processes of each role recorded theirs. */
export interface CommandCpu {
  seconds: Record<CpuRole, number>;
  processes: Record<CpuRole, number>;
}

const PRELOAD = require.resolve("./processCpuPreload.js");

/** The environment that makes every Node.js process of a stack's commands record its CPU in `logFile`. */
export function processCpuEnv(logFile: string): Record<string, string> {
  const existing = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : "";
  // Quoted: NODE_OPTIONS splits on spaces, and the clone may sit in a folder whose name has one.
  return { NODE_OPTIONS: `${existing}--require ${JSON.stringify(PRELOAD)}`, BENCH_CPU_LOG: logFile };
}

/**
 * The CPU recorded in `logFile` since the last take, summed per role; the record starts again empty (it
 * is moved aside before it is read, so a line appended meanwhile goes to the next take). Throws on a
 * line that is not one the preload writes: a broken record must not pass for a cheap process.
 */
export function takeProcessCpu(logFile: string): CommandCpu {
  const cpu: CommandCpu = { seconds: { program: 0, provider: 0 }, processes: { program: 0, provider: 0 } };
  if (!existsSync(logFile)) return cpu;
  const taken = `${logFile}.taken`;
  renameSync(logFile, taken);
  const text = readFileSync(taken, "utf8");
  rmSync(taken);
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as { role?: unknown; cpuMicros?: unknown };
    if ((entry.role !== "program" && entry.role !== "provider") || typeof entry.cpuMicros !== "number") {
      throw new Error(`${logFile}: not a process CPU record: ${line}`);
    }
    cpu.seconds[entry.role] += entry.cpuMicros / 1e6;
    cpu.processes[entry.role] += 1;
  }
  return cpu;
}

/**
 * Refuses a phase's record that lacks a process the phase runs: the provider always, the program in every
 * phase but refresh and destroy (which run none). A lost line (a provider killed before it could write)
 * would otherwise read as a process that used no CPU.
 */
export function checkedCommandCpu(
  cpu: CommandCpu,
  phase: string,
  side: string,
  runsProgram: boolean,
): CommandCpu {
  const missing: CpuRole[] = [];
  if (cpu.processes.provider === 0) missing.push("provider");
  if (runsProgram && cpu.processes.program === 0) missing.push("program");
  if (missing.length > 0) {
    throw new Error(`${side}, ${phase}: no CPU record of the ${missing.join(" or the ")} process`);
  }
  return cpu;
}
