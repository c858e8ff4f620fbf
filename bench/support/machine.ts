/** The machine a bench run measures: CPU, memory, OS, Node and Pulumi versions. */
import { execFileSync } from "node:child_process";
import * as os from "node:os";
import type { Machine } from "./results";

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpuCount: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    pulumi: execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim(),
  };
}
