"use strict";
/**
 * Loaded into every Node.js process of a bench stack's command (NODE_OPTIONS=--require, see
 * ./processCpu.ts): when the process is the Pulumi program or a provider (the dynamic providers' host or
 * the native plugin), appends one line `{"role","cpuMicros"}` with the CPU it used (user + system) to the
 * file named by BENCH_CPU_LOG. The engine stops providers with SIGINT (then SIGKILL 5 s later): the line
 * is written first, then the signal's default action is taken again, so the process ends as it would have
 * (a provider busy in synchronous code past those 5 s loses its line, which the bench then refuses).
 * A process with its own listener for the signal keeps it: its CPU is recorded when the signal comes.
 * Plain JavaScript: it runs in processes that have no TypeScript loader.
 */
const fs = require("node:fs");
const { isMainThread } = require("node:worker_threads");

const logFile = process.env.BENCH_CPU_LOG;
const script = (process.argv[1] || "").replace(/\\/g, "/");

/** Which process this is, from the script Node runs; undefined for any other (npm, `node -e`, a helper). */
function roleOf(path) {
  if (/\/@pulumi\/pulumi\/cmd\/run(\/index\.js)?$/.test(path)) return "program";
  if (/\/@pulumi\/pulumi\/cmd\/dynamic-provider(\/index\.js)?$/.test(path)) return "provider";
  if (/\/provider\/native\/main\.js$/.test(path) || /\/pulumi-resource-codesec\.js$/.test(path))
    return "provider";
  return undefined;
}

const role = roleOf(script);
// A worker thread's process.cpuUsage() is the whole process's: only the main thread records it.
if (logFile && role && isMainThread) {
  let written = false;
  const record = () => {
    if (written) return;
    written = true;
    try {
      const used = process.cpuUsage();
      fs.appendFileSync(logFile, `${JSON.stringify({ role, cpuMicros: used.user + used.system })}\n`);
    } catch (error) {
      // A lost line is refused by the bench; the process must still end as it would have.
      process.stderr.write(`bench process CPU: not recorded: ${error && error.message}\n`);
    }
  };
  process.on("exit", record);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      record();
      // Only ours was listening: the default action again (the process ends by this signal).
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
