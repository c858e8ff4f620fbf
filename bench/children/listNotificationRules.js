"use strict";
/**
 * Child process of the getNotificationRules comparison: loads the built package, calls `getNotificationRules`
 * once for the deployment in argv[2] (credentials from CODESEC_BASE_URL / CODESEC_TOKEN) and prints one JSON
 * line: rules, seconds, and resident memory (MB) after loading and at its peak. A process of its own, so that
 * the peak is this call's and nothing else's. Plain JavaScript: no compiler in the measured memory.
 */
const { performance } = require("node:perf_hooks");
const codesec = require("pulumi-codesec");

async function main() {
  const loadedMb = process.memoryUsage().rss / 2 ** 20;
  const start = performance.now();
  const result = await codesec.getNotificationRules({ deploymentId: process.argv[2] });
  const seconds = (performance.now() - start) / 1000;
  // maxRSS is in kilobytes: the highest resident set of the whole process so far.
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ rules: result.rules.length, seconds, loadedMb, peakMb }) + "\n");
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
