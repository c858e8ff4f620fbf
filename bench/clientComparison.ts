/**
 * Comparison 4, the client against a bare keep-alive `node:http` loop on the same emulator route, and the
 * cold load of `pulumi-codesec/dynamic`. The measurements are the sdk's: `measureClientSpeed()` in
 * bench/clientSpeed.ts and `measureModuleLoad()` in bench/moduleLoad.ts; this module only collects their
 * figures (each returns a list of `Figure`s; anything else is kept as a figure whose detail is its JSON).
 */
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";

const COMPARISON = "4 client";

type Measure = (options: { smoke: boolean; reps: number }) => Promise<unknown>;

function isFigure(value: unknown): value is Figure {
  const f = value as Figure;
  return typeof f === "object" && f !== null && typeof f.name === "string" && typeof f.value === "number";
}

function asFigures(source: string, measured: unknown): Figure[] {
  if (Array.isArray(measured) && measured.every(isFigure)) {
    return measured.map(({ met: _met, ...f }) => figure({ ...f, comparison: f.comparison || COMPARISON }));
  }
  return [
    figure({
      comparison: COMPARISON,
      name: source,
      value: Number.NaN,
      unit: "",
      detail: JSON.stringify(measured),
    }),
  ];
}

/**
 * PENDING (sdk helper): bench/clientSpeed.ts and bench/moduleLoad.ts are being written in another branch.
 * Until they are merged, a missing module is reported as a note ("not yet available") instead of a
 * figure; once both exist this lookup never takes that branch and can become plain imports.
 */
function load(file: string, exportName: string): Measure | undefined {
  try {
    const loaded = require(file) as Record<string, unknown>;
    return typeof loaded[exportName] === "function" ? (loaded[exportName] as Measure) : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" && String(error).includes(file))
      return undefined;
    throw error;
  }
}

export async function clientFigures(options: BenchOptions, notes: string[]): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [file, exportName] of [
    ["./clientSpeed", "measureClientSpeed"],
    ["./moduleLoad", "measureModuleLoad"],
  ] as const) {
    const measure = load(file, exportName);
    if (!measure) {
      const note = `${exportName} (bench/${file.slice(2)}.ts): not yet available`;
      console.error(`  ${note}`);
      notes.push(note);
      continue;
    }
    figures.push(...asFigures(exportName, await measure({ smoke: options.smoke, reps: options.reps })));
  }
  return figures;
}
