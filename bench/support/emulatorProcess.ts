/**
 * The emulator as a command in a process of its own (the built `codesec-emulator`), so that what loads
 * it does not share its CPU with the bench: resolves once it prints its one JSON line.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";

/** A running emulator process. */
export interface EmulatorProcess {
  baseUrl: string;
  apiToken: string;
  deploymentId: string;
  sample: { scanId: string; memberUserId: string };
  /** Stops it (SIGTERM) and resolves once it has exited. */
  close(): Promise<void>;
}

const BIN = path.join(__dirname, "..", "..", "emulator", "bin", "codesec-emulator.js");

/** Starts `codesec-emulator --json --quiet` with `args` added (e.g. `--fixtures F`, `--state S`). */
export async function startEmulatorProcess(args: readonly string[]): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [BIN, "--json", "--quiet", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (text) => {
      lines.close();
      resolve(text);
    });
    child.once("exit", (code) =>
      reject(new Error(`codesec-emulator exited (${code}) before it listened: ${stderr}`)),
    );
  });
  const ready = JSON.parse(line) as Omit<EmulatorProcess, "close">;
  return {
    baseUrl: ready.baseUrl,
    apiToken: ready.apiToken,
    deploymentId: ready.deploymentId,
    sample: ready.sample,
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
