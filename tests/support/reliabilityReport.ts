/**
 * Sections of docs/reliability.md, written by the tests that prove them. Each test file that owns a
 * section calls `writeReportSection` once its checks have passed; `scripts/reliability-report.ts`
 * assembles the sections into the document after `npm test`. A section holds only figures that a
 * passing run reproduces exactly (outcomes, counts, sizes; never timings), so a fresh run renders the
 * committed document byte for byte, and CI fails when it does not.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** Where sections go between the test run and the rendering (git-ignored). */
export const SECTIONS_DIR = path.resolve(__dirname, "../../.reports/reliability");

/** One section of the report. */
export interface ReportSection {
  /** File-name-safe id, one of REPORT_SECTIONS in scripts/reliability-report.ts. */
  id: string;
  /** Heading of the section (rendered as `## title`). */
  title: string;
  /** The body: markdown, deterministic for a passing run. */
  markdown: string;
}

export function writeReportSection(section: ReportSection): void {
  mkdirSync(SECTIONS_DIR, { recursive: true });
  writeFileSync(path.join(SECTIONS_DIR, `${section.id}.json`), `${JSON.stringify(section, null, 2)}\n`);
}

/** A markdown table from a header row and data rows (cells are escaped for `|`). */
export function markdownTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (value: unknown) => String(value).replace(/\|/g, "\\|").replace(/\n/g, " ");
  const line = (cells: readonly unknown[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
