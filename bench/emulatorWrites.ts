/**
 * Emulator writes, part of the emulator capacity comparison: what one write costs the emulator as its store
 * grows, in milliseconds per role change (updateUserRole, one client, each write changing a role) with 1,000,
 * 10,000 and 50,000 notification rules, with the state in memory and with `--state` (every write durable
 * before its answer: a line appended to the journal, emulator/stateJournal.ts). A write should cost what it
 * touches, not the size of the store. Every write changes a role (see `roleWrites`), and with `--state` the
 * run checks it: the journal must hold one change per write, or the comparison fails. Run alone: `bash
 * scripts/with-tools.sh node -r ts-node/register/transpile-only bench/emulatorWrites.ts [--smoke]` (after
 * `npm run build`).
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { scratchDir } from "../tests/e2e/support/harness";
import { WRITTEN_MEMBERS, roleWrites } from "./emulatorCapacity";
import { bareLoop } from "./support/bareLoop";
import { startEmulatorProcess } from "./support/emulatorProcess";
import { benchFixtures, writeFixtureFile } from "./support/fixtures";
import { benchOptions, type BenchOptions } from "./support/options";
import { figure, markdownTable, type Figure } from "./support/results";
import { pairedRatios, summarized } from "./support/stats";

const COMPARISON = "emulator capacity";

/**
 * The changes a `--state` emulator's journal holds (its lines after the header): one per write that
 * changed something, since the emulator skips a write that changes nothing (emulator/stateJournal.ts).
 * The proof that the figures measure real writes.
 */
export function journalChanges(journal: string): number {
  if (!existsSync(journal)) return 0;
  const lines = readFileSync(journal, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return Math.max(0, lines.length - 1);
}

/** Milliseconds per write, by store size and storage. */
export async function emulatorWriteCost(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Figure[]> {
  const dir = scratchDir("write-cost");
  const measured = new Map<string, number[]>();
  for (let rep = 0; rep < options.reps; rep++) {
    for (const rules of options.writeCostRules) {
      const fixtures = writeFixtureFile(
        dir,
        `rules-${rules}`,
        benchFixtures({ members: WRITTEN_MEMBERS, rules }),
      );
      for (const storage of ["memory", "state"] as const) {
        const stateFile = path.join(dir, `state-${rules}.json`);
        rmSync(stateFile, { force: true });
        rmSync(`${stateFile}.journal`, { force: true });
        const emulator = await startEmulatorProcess([
          "--fixtures",
          fixtures,
          ...(storage === "state" ? ["--state", stateFile] : []),
        ]);
        try {
          const writes = roleWrites(emulator);
          const warmUp = Math.min(50, options.writesPerMeasure);
          await bareLoop(writes, 1, { requests: warmUp });
          const result = await bareLoop(writes, 1, { requests: options.writesPerMeasure });
          const failed = result.requests - (result.statuses["200"] ?? 0);
          if (failed > 0)
            throw new Error(`${failed} writes answered other than 200: ${JSON.stringify(result.statuses)}`);
          if (storage === "state") {
            const changes = journalChanges(`${stateFile}.journal`);
            if (changes !== warmUp + result.requests)
              throw new Error(
                `${warmUp + result.requests} writes, ${changes} changes in the journal: some writes changed nothing`,
              );
          }
          const ms = (result.seconds * 1000) / result.requests;
          const key = `${storage} ${rules}`;
          measured.set(key, [...(measured.get(key) ?? []), ms]);
          log(`  rep ${rep + 1} ${rules} rules, ${storage}: ${ms.toFixed(2)} ms per write`);
        } finally {
          await emulator.close();
        }
      }
    }
  }
  const figures: Figure[] = [];
  const smallest = Math.min(...options.writeCostRules);
  for (const storage of ["memory", "state"] as const) {
    const label = storage === "memory" ? "in memory" : "--state";
    for (const rules of options.writeCostRules) {
      const values = measured.get(`${storage} ${rules}`) ?? [];
      figures.push(
        figure({
          comparison: COMPARISON,
          name: `updateUserRole changing a role, ${label}, ${rules.toLocaleString("en-US")} rules: time per write`,
          ...summarized(values),
          unit: "ms",
          detail: `one client, ${options.writesPerMeasure} writes, median of ${values.length}`,
        }),
      );
    }
    const largest = Math.max(...options.writeCostRules);
    // Paired: each repetition's largest store against the smallest store of the same repetition.
    const ratios = pairedRatios(
      measured.get(`${storage} ${largest}`) ?? [],
      measured.get(`${storage} ${smallest}`) ?? [],
    );
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `updateUserRole changing a role, ${label}, time per write with ${largest.toLocaleString("en-US")} rules / ${smallest.toLocaleString("en-US")}`,
        ...summarized(ratios),
        unit: "x",
        target: { op: "<=", value: 1.5 },
      }),
    );
  }
  return figures;
}

if (require.main === module) {
  const options = benchOptions(process.argv.slice(2), process.env);
  emulatorWriteCost(options, (line) => console.error(line)).then(
    (figures) => console.log(markdownTable(figures)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
