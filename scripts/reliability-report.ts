/**
 * Assembles docs/reliability.md from the sections the reliability tests write (tests/support/
 * reliabilityReport.ts). Modes:
 *   (none)   render the sections of the last `npm test` run into docs/reliability.md;
 *   --lint   fail when the document was rendered from other test sources than the ones in the tree
 *            (a changed reliability test without a regenerated report), without running anything.
 * `npm test` renders; under CI it then fails when the rendered document differs from the committed one.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { SECTIONS_DIR, type ReportSection } from "../tests/support/reliabilityReport";
import { generatedHeader } from "./generatedHeader";

const root = path.resolve(__dirname, "..");
const DOC = path.join(root, "docs/reliability.md");

/** Every section the document must have, in order. */
export const REPORT_SECTIONS = [
  "fault-matrix",
  "bad-input",
  "secrets-sweep",
  "credential-rotation",
  "interrupted-runs",
  "emulator-load",
  "emulator-kill",
] as const;

/** The files whose content defines what the report measures. */
const SOURCES = [
  "tests/reliability",
  "tests/e2e/reliability",
  "tests/support/reliabilityReport.ts",
  "scripts/reliability-report.ts",
];

function filesUnder(relative: string): string[] {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [relative];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(path.join(relative, name)));
}

/** sha256 over the report's source files (path and content), in a stable order. */
export function sourcesFingerprint(): string {
  const hash = createHash("sha256");
  for (const file of SOURCES.flatMap(filesUnder).sort()) {
    hash.update(`${file.split(path.sep).join("/")}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const FINGERPRINT_LINE = /^<!-- sources: ([0-9a-f]{16}) -->$/m;

function render(): string {
  const missing = REPORT_SECTIONS.filter((id) => !existsSync(path.join(SECTIONS_DIR, `${id}.json`)));
  if (missing.length > 0) {
    throw new Error(
      `no result for section(s) ${missing.join(", ")} in ${path.relative(root, SECTIONS_DIR)}: ` +
        "run the whole suite (npm test), which writes every section, then render again",
    );
  }
  const sections = REPORT_SECTIONS.map(
    (id) => JSON.parse(readFileSync(path.join(SECTIONS_DIR, `${id}.json`), "utf8")) as ReportSection,
  );
  return [
    "# Reliability report",
    "",
    `<!-- ${generatedHeader("`npm test`", ["tests/reliability/", "tests/e2e/reliability/"])} -->`,
    `<!-- sources: ${sourcesFingerprint()} -->`,
    "",
    "Each line is proved by the tests named above. CI renders this file again and fails when it differs, and",
    "`npm run lint` fails when those tests changed after it was rendered. It holds only what a passing run",
    "reproduces exactly: outcomes and counts, never timings.",
    "",
    ...sections.flatMap((section) => [`## ${section.title}`, "", section.markdown.trim(), ""]),
  ].join("\n");
}

function main(args: readonly string[]): number {
  if (args.includes("--lint")) {
    const text = existsSync(DOC) ? readFileSync(DOC, "utf8") : "";
    const recorded = FINGERPRINT_LINE.exec(text)?.[1];
    const current = sourcesFingerprint();
    if (recorded !== current) {
      process.stderr.write(
        `docs/reliability.md is stale: it was rendered from reliability tests with fingerprint ${recorded ?? "(none)"}, ` +
          `the tree has ${current}. Run \`npm test\` (it renders the report) and commit docs/reliability.md.\n`,
      );
      return 1;
    }
    return 0;
  }
  writeFileSync(DOC, render());
  process.stdout.write(`wrote ${path.relative(root, DOC)}\n`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
