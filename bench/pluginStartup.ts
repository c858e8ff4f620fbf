/**
 * Comparison 8b, the native plugin's start-up (issue 15: under 300 ms): the time from starting the
 * launcher `pulumi-resource-codesec` (as the engine starts it, with an engine address as its argument)
 * until it prints the port it serves on, which is when the engine can call it. Separate processes, one
 * after the other, the median and spread of `runs`.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { nativePluginDir } from "../tests/e2e/support/harness";
import { figure, type Figure } from "./support/results";
import { summarized } from "./support/stats";

const LAUNCHER = path.join(nativePluginDir, "pulumi-resource-codesec");

/** Milliseconds from spawning the launcher to its first line of output (the port). */
export async function pluginStartMs(): Promise<number> {
  const start = performance.now();
  // An engine address nothing listens on: the plugin only dials it when a call needs the engine.
  const child = spawn(LAUNCHER, ["127.0.0.1:9"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once("line", (text) => {
        lines.close();
        resolve(text);
      });
      child.once("exit", (code) => reject(new Error(`pulumi-resource-codesec exited (${code}): ${stderr}`)));
    });
    const took = performance.now() - start;
    if (!/^\d+$/.test(line.trim())) throw new Error(`pulumi-resource-codesec printed ${line}, not a port`);
    return took;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

export async function pluginStartup(runs: number, log: (line: string) => void): Promise<Figure[]> {
  await pluginStartMs(); // warm-up: the file system cache, as for an engine that has run a plugin before
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await pluginStartMs());
  log(`  plugin start-up: ${times.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  return [
    figure({
      comparison: "8 native provider",
      name: "plugin start-up, launcher to port",
      ...summarized(times),
      unit: "ms",
      target: { op: "<=", value: 300 },
      detail: `wall time from spawning pulumi-resource-codesec to its port, ${runs} processes one after the other`,
    }),
  ];
}
