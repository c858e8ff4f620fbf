/**
 * The getNotificationRules comparison, the function at scale: the package's function listing 10, 1,000 and
 * 10,000 rules from the emulator (a process of its own, its store holding exactly that many rules), each call
 * in a fresh child process for its peak memory; with the requests it took. Listing should cost no more per
 * rule at 10,000 than at 1,000.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { scratchDir } from "../tests/e2e/support/harness";
import { startEmulatorProcess } from "./support/emulatorProcess";
import { benchFixtures, writeFixtureFile } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { median, pairedRatios, summarized } from "./support/stats";

const COMPARISON = "getNotificationRules";
const CHILD = path.join(__dirname, "children", "listNotificationRules.js");

interface Listing {
  rules: number;
  seconds: number;
  loadedMb: number;
  peakMb: number;
}

async function countRequests(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/__emulator/requests`);
  const { requests } = (await response.json()) as { requests: Array<{ operation: string | null }> };
  return requests.filter((entry) => entry.operation === "listNotificationRules").length;
}

export async function notificationRules(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Figure[]> {
  const dir = scratchDir("rules");
  const listings = new Map<number, Listing[]>();
  const requests = new Map<number, number>();
  for (let rep = 0; rep < options.reps; rep++) {
    for (const count of options.ruleCounts) {
      const emulator = await startEmulatorProcess([
        "--fixtures",
        writeFixtureFile(dir, `rules-${count}`, benchFixtures({ rules: count })),
      ]);
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [CHILD, emulator.deploymentId], {
          env: { ...process.env, CODESEC_BASE_URL: emulator.baseUrl, CODESEC_TOKEN: emulator.apiToken },
        });
        const listing = JSON.parse(stdout) as Listing;
        if (listing.rules !== count) throw new Error(`listed ${listing.rules} rules of ${count}`);
        listings.set(count, [...(listings.get(count) ?? []), listing]);
        requests.set(count, await countRequests(emulator.baseUrl));
        log(
          `  rep ${rep + 1} ${count} rules: ${listing.seconds.toFixed(3)} s, peak ${listing.peakMb.toFixed(0)} MB`,
        );
      } finally {
        await emulator.close();
      }
    }
  }
  const figures: Figure[] = [];
  for (const count of options.ruleCounts) {
    const runs = listings.get(count) ?? [];
    const seconds = median(runs.map((l) => l.seconds));
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `${count.toLocaleString("en-US")} rules, time`,
        value: seconds,
        unit: "s",
        detail: `${requests.get(count)} requests, ${((seconds / count) * 1e6).toFixed(0)} µs per rule (median of ${runs.length})`,
      }),
      figure({
        comparison: COMPARISON,
        name: `${count.toLocaleString("en-US")} rules, peak memory`,
        value: median(runs.map((l) => l.peakMb)),
        unit: "MB",
        detail: `resident after loading the package: ${median(runs.map((l) => l.loadedMb)).toFixed(0)} MB`,
      }),
    );
  }
  const [smaller, largest] = [options.ruleCounts.at(-2), options.ruleCounts.at(-1)];
  if (smaller !== undefined && largest !== undefined) {
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `time per rule, ${largest.toLocaleString("en-US")} / ${smaller.toLocaleString("en-US")} rules`,
        // Paired: each repetition's largest listing against the smaller one of the same repetition.
        ...summarized(
          pairedRatios(
            (listings.get(largest) ?? []).map((l) => l.seconds / largest),
            (listings.get(smaller) ?? []).map((l) => l.seconds / smaller),
          ),
        ),
        unit: "x",
        target: { op: "<=", value: 1.1 },
      }),
    );
  }
  return figures;
}
