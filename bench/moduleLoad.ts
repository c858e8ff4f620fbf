/**
 * Cold load of the built package (`npm run build` first): each entry point is required in a fresh
 * `node` process from the repository root (node_modules/pulumi-codesec links to it), after
 * `@pulumi/pulumi` is already loaded, as in the provider host. Median of several processes: the time of
 * the `require` alone, the modules it loads and how many of them are TypeBox's. A second figure for
 * `pulumi-codesec/dynamic` adds the first check of a valid value (what a provider does at once).
 * Prints a markdown table; `measureModuleLoad()` returns the figures. Target: dynamic <= 50 ms.
 *
 * Run: `node -r ts-node/register/transpile-only bench/moduleLoad.ts` (BENCH_LOAD_RUNS, default 9).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..");

export interface ModuleLoadOptions {
  /** Cold processes per entry point. Default 9. */
  runs?: number;
  /** Entry points. Default the sdk, the api and the dynamic provider. */
  entries?: string[];
}

export interface ModuleLoadFigure {
  entry: string;
  /** Median ms of the `require` in a cold process, every run in `samplesMs`. */
  medianMs: number;
  samplesMs: number[];
  /** Modules the `require` loaded (deterministic), TypeBox's among them. */
  modules: number;
  typeboxModules: number;
  /** For the dynamic provider: the same plus the first check of a valid value (resource inputs). */
  withFirstCheck?: { medianMs: number; modules: number; typeboxModules: number };
}

export interface ModuleLoadResult {
  node: string;
  runs: number;
  figures: ModuleLoadFigure[];
}

interface Sample {
  ms: number;
  modules: number;
  typebox: number;
}

/** One cold process: preload @pulumi/pulumi, then time `require(entry)` and, if given, `after`. */
function sample(entry: string, after?: string): Sample {
  const script = `
    require("@pulumi/pulumi");
    const before = new Set(Object.keys(require.cache));
    const start = process.hrtime.bigint();
    const loaded = require(${JSON.stringify(entry)});
    ${after ?? ""}
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const added = Object.keys(require.cache).filter((file) => !before.has(file));
    process.stdout.write(JSON.stringify({ ms, modules: added.length, typebox: added.filter((f) => f.includes("@sinclair")).length }));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" }),
  ) as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// What the provider does first with valid resource inputs: check them against the API's field schemas.
const FIRST_CHECK = `
  const api = require("pulumi-codesec/api");
  if (api.firstSchemaIssue(api.UpdateUserRoleArgs, { deploymentId: "1", userId: "u", newRole: "ORG_ROLE_MEMBER" }) !== undefined) throw new Error("check");
`;

/** Measures the cold load of each entry point; see the file's comment. */
export function measureModuleLoad(options: ModuleLoadOptions = {}): ModuleLoadResult {
  if (!fs.existsSync(path.join(ROOT, "dist", "provider", "dynamic", "index.js"))) {
    throw new Error("bench/moduleLoad.ts measures the built package: run `npm run build` first");
  }
  const runs = options.runs ?? 9;
  const entries = options.entries ?? ["pulumi-codesec/sdk", "pulumi-codesec/api", "pulumi-codesec/dynamic"];
  const figures = entries.map((entry): ModuleLoadFigure => {
    const samples = Array.from({ length: runs }, () => sample(entry));
    const figure: ModuleLoadFigure = {
      entry,
      medianMs: median(samples.map((s) => s.ms)),
      samplesMs: samples.map((s) => Math.round(s.ms * 10) / 10),
      modules: samples[0].modules,
      typeboxModules: samples[0].typebox,
    };
    if (entry.endsWith("/dynamic")) {
      const checked = Array.from({ length: runs }, () => sample(entry, FIRST_CHECK));
      figure.withFirstCheck = {
        medianMs: median(checked.map((s) => s.ms)),
        modules: checked[0].modules,
        typeboxModules: checked[0].typebox,
      };
    }
    return figure;
  });
  return { node: process.version, runs, figures };
}

/** The figures as a markdown table. */
export function moduleLoadTable(result: ModuleLoadResult): string {
  const lines = [
    `Cold require after @pulumi/pulumi (Node.js ${result.node}, median of ${result.runs} processes; target: dynamic <= 50 ms)`,
    "",
    "| entry | median ms | modules | TypeBox modules |",
    "|---|---|---|---|",
  ];
  for (const f of result.figures) {
    lines.push(`| ${f.entry} | ${f.medianMs.toFixed(1)} | ${f.modules} | ${f.typeboxModules} |`);
    if (f.withFirstCheck) {
      const c = f.withFirstCheck;
      lines.push(
        `| ${f.entry} + first check | ${c.medianMs.toFixed(1)} | ${c.modules} | ${c.typeboxModules} |`,
      );
    }
  }
  return lines.join("\n");
}

if (require.main === module) {
  try {
    console.log(moduleLoadTable(measureModuleLoad({ runs: Number(process.env.BENCH_LOAD_RUNS ?? 9) })));
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
