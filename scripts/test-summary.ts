/**
 * The closing line of `npm test` (scripts/test.sh): the counts of both phases in one line, in the plain
 * "N passed, N failed, N skipped" form that CI reads, then each phase's own counts, or why a phase has
 * none (not run, or ended before its reporter could count). Exits 1 when anything failed or did not run.
 *
 *   node -r ts-node/register/transpile-only scripts/test-summary.ts <phase>=<counts.json>:<exit code> \
 *     <phase>=not-run:<reason> problem=<what else failed> ...
 *
 * The counts files are written by tests/support/summaryReporter.js when CODESEC_TEST_COUNTS names one.
 */
import { existsSync, readFileSync } from "node:fs";

/** What one phase of the run came to. */
export type PhaseOutcome =
  | {
      name: string;
      ran: true;
      exitCode: number;
      counts?: { passes: number; failures: number; pending: number };
    }
  | { name: string; ran: false; reason: string };

function plural(n: number, word: string): string {
  return `${n} ${word}`;
}

/**
 * The closing line and whether the run as a whole succeeded. `problems` are failures outside the phases'
 * tests (a generated document that differs from the committed one).
 */
export function summarize(phases: PhaseOutcome[], problems: string[] = []): { line: string; ok: boolean } {
  let passes = 0;
  let failures = 0;
  let pending = 0;
  let ok = true;
  const parts = phases.map((phase) => {
    if (!phase.ran) {
      ok = false;
      return `${phase.name}: not run (${phase.reason})`;
    }
    if (!phase.counts) {
      ok = false;
      return `${phase.name}: ended with exit code ${phase.exitCode} before its tests were counted`;
    }
    const { counts } = phase;
    passes += counts.passes;
    failures += counts.failures;
    pending += counts.pending;
    // A phase that exits non-zero without a failed test still failed (a crash after the last test).
    if (counts.failures > 0 || phase.exitCode !== 0) ok = false;
    const exit = counts.failures === 0 && phase.exitCode !== 0 ? `, exit code ${phase.exitCode}` : "";
    return `${phase.name}: ${plural(counts.passes, "passed")}, ${plural(counts.failures, "failed")}, ${plural(counts.pending, "skipped")}${exit}`;
  });
  if (problems.length > 0) ok = false;
  parts.push(...problems);
  const verdict = ok ? "" : " (FAILED)";
  return {
    line: `${passes} passed, ${failures} failed, ${pending} skipped${verdict}: ${parts.join("; ")}`,
    ok,
  };
}

/** `<name>=<file>:<exit code>` or `<name>=not-run:<reason>`. */
export function parsePhaseArgument(arg: string): PhaseOutcome {
  const match = /^([^=]+)=(.*)$/.exec(arg);
  if (!match)
    throw new Error(`expected <phase>=<counts file>:<exit code> or <phase>=not-run:<reason>, got ${arg}`);
  const [, name, rest] = match;
  if (rest.startsWith("not-run:")) return { name, ran: false, reason: rest.slice("not-run:".length) };
  const colon = rest.lastIndexOf(":");
  const file = rest.slice(0, colon);
  const exitCode = Number(rest.slice(colon + 1));
  if (colon < 0 || !Number.isInteger(exitCode)) throw new Error(`no exit code in ${arg}`);
  const counts = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { passes: number; failures: number; pending: number })
    : undefined;
  return { name, ran: true, exitCode, counts };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const problems = args
    .filter((arg) => arg.startsWith("problem="))
    .map((arg) => arg.slice("problem=".length));
  const phases = args.filter((arg) => !arg.startsWith("problem=")).map(parsePhaseArgument);
  const { line, ok } = summarize(phases, problems);
  process.stdout.write(`\n${line}\n`);
  process.exitCode = ok ? 0 : 1;
}
