/**
 * Cold load of the built package (`npm run build` first): each entry point is required in a fresh
 * `node` process from the repository root (node_modules/pulumi-codesec links to it), after
 * `@pulumi/pulumi` is already loaded, as in the program and the provider host. Median of several
 * processes: the CPU time and the wall time of the `require` alone, the modules it loads and how many
 * of them are TypeBox's. The CPU time is the figure: a `require` runs on one thread from files in the
 * page cache, so on an idle machine its wall time is its CPU time, and unlike the wall time it stays
 * put on a machine busy with other work (where the wall time also counts the waits for a core).
 * The entries: the client, the API, the program's (`pulumi-codesec`), the legacy provider entry and the
 * one the engine loads for a UserRole (`pulumi-codesec/dynamic/UserRole`). A second figure for each
 * provider entry adds what a provider does first: the legacy one checks a valid value against an API
 * schema; the UserRole one runs its `check` on valid inputs (without credentials, so it stops at the
 * credential step, after validating and before any request), as in every preview.
 * Prints a markdown table; `measureModuleLoad()` returns the figures. Target: provider entries <= 50 ms.
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
  /** Entry points. Default {@link DEFAULT_ENTRIES}. */
  entries?: string[];
}

export interface ModuleLoadFigure {
  entry: string;
  /** Median CPU ms (user + system) of the `require` in a cold process. */
  cpuMs: number;
  /** Median wall ms of the `require` in a cold process, every run in `samplesMs`. */
  medianMs: number;
  samplesMs: number[];
  /** Modules the `require` loaded (deterministic), TypeBox's among them. */
  modules: number;
  typeboxModules: number;
  /** For a provider entry: the same plus what the provider does first (see FIRST_CHECKS). */
  withFirstCheck?: { cpuMs: number; medianMs: number; modules: number; typeboxModules: number };
}

export interface ModuleLoadResult {
  node: string;
  runs: number;
  figures: ModuleLoadFigure[];
}

interface Sample {
  ms: number;
  cpuMs: number;
  modules: number;
  typebox: number;
}

/** The entries measured by default; the program's and the engine's are what a `pulumi preview` loads. */
export const DEFAULT_ENTRIES = [
  "pulumi-codesec/sdk",
  "pulumi-codesec/api",
  "pulumi-codesec",
  "pulumi-codesec/dynamic",
  "pulumi-codesec/dynamic/UserRole",
];

/** An environment without credentials or stack config, so that a provider's check cannot reach a platform. */
function isolatedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CODESEC_|PULUMI_CONFIG)/.test(name)),
  );
}

/** One cold process: preload @pulumi/pulumi, then time `require(entry)` and, if given, `after` (may await). */
function sample(entry: string, after?: string): Sample {
  const script = `(async () => {
    require("@pulumi/pulumi");
    const before = new Set(Object.keys(require.cache));
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const loaded = require(${JSON.stringify(entry)});
    ${after ?? ""}
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const added = Object.keys(require.cache).filter((file) => !before.has(file));
    process.stdout.write(JSON.stringify({ ms, cpuMs, modules: added.length, typebox: added.filter((f) => f.includes("@sinclair")).length }));
  })()`;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8", env: isolatedEnv() }),
  ) as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// What a provider does first with valid inputs. The legacy entry: a check against an API schema. A kind's
// entry (the provider object itself): its check of a UserRole's inputs, which throws at the credential step
// (there are none: a credential error names the field `connection`) after validating them.
const FIRST_CHECKS: Record<string, string> = {
  "pulumi-codesec/dynamic": `
    const api = require("pulumi-codesec/api");
    if (api.firstSchemaIssue(api.UpdateUserRoleArgs, { deploymentId: "1", userId: "u", newRole: "ORG_ROLE_MEMBER" }) !== undefined) throw new Error("check");
  `,
  "pulumi-codesec/dynamic/UserRole": `
    const failure = await loaded.check({}, { deploymentId: "1001", userId: "502", role: "ORG_ROLE_ADMIN" }).then(
      (result) => new Error("check passed without credentials: " + JSON.stringify(result)),
      (error) => (error.field === "connection" ? undefined : error),
    );
    if (failure) throw failure;
  `,
};

/** Measures the cold load of each entry point; see the file's comment. */
export function measureModuleLoad(options: ModuleLoadOptions = {}): ModuleLoadResult {
  if (!fs.existsSync(path.join(ROOT, "dist", "provider", "dynamic", "index.js"))) {
    throw new Error("bench/moduleLoad.ts measures the built package: run `npm run build` first");
  }
  const runs = options.runs ?? 9;
  const entries = options.entries ?? DEFAULT_ENTRIES;
  const figures = entries.map((entry): ModuleLoadFigure => {
    const samples = Array.from({ length: runs }, () => sample(entry));
    const figure: ModuleLoadFigure = {
      entry,
      cpuMs: median(samples.map((s) => s.cpuMs)),
      medianMs: median(samples.map((s) => s.ms)),
      samplesMs: samples.map((s) => Math.round(s.ms * 10) / 10),
      modules: samples[0].modules,
      typeboxModules: samples[0].typebox,
    };
    const firstCheck = FIRST_CHECKS[entry];
    if (firstCheck !== undefined) {
      const checked = Array.from({ length: runs }, () => sample(entry, firstCheck));
      figure.withFirstCheck = {
        cpuMs: median(checked.map((s) => s.cpuMs)),
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
    `Cold require after @pulumi/pulumi (Node.js ${result.node}, median of ${result.runs} processes; target: provider entries <= 50 ms)`,
    "",
    "| entry | CPU ms | wall ms | modules | TypeBox modules |",
    "|---|---|---|---|---|",
  ];
  for (const f of result.figures) {
    lines.push(
      `| ${f.entry} | ${f.cpuMs.toFixed(1)} | ${f.medianMs.toFixed(1)} | ${f.modules} | ${f.typeboxModules} |`,
    );
    if (f.withFirstCheck) {
      const c = f.withFirstCheck;
      lines.push(
        `| ${f.entry} + first check | ${c.cpuMs.toFixed(1)} | ${c.medianMs.toFixed(1)} | ${c.modules} | ${c.typeboxModules} |`,
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
