/**
 * What a Pulumi CLI command's output must not hold, whatever its test asserts: a command that exited 0 is
 * a success only when the user sees none of an error (an `error:` diagnostic, a count of resources that
 * `errored`), and no command may show a provider's crash (the engine's "exited prematurely" report, which
 * it prints when a plugin it stops never acknowledged its Cancel). Every path of the e2e suite that runs
 * the CLI checks its output here (harness.ts, the workflow runner, the documented shell commands, the
 * demo); a test that expects an error in a command that exits 0 says so (`expectErrors`, or its path's
 * own declaration). A command that exits non-zero fails its test unless the test expects the failure, so
 * only the crash report is looked for there.
 *
 * The forms are the CLI's own, so that a stack output, a log line or a JSON value that merely holds the
 * words is no error: a diagnostic's `error: ` prefix starts a line (the CLI's own errors, the diff
 * display's diagnostics) or, in the "Diagnostics:" section, is indented under its resource's header
 * (`  <type> (<name>):` then `    error: ...`); the count of failed steps is a `    N errored` line of the
 * "Resources:" summary.
 */

/** A CLI error, or a diagnostic of the diff display. */
const TOP_LEVEL_ERROR = /^error: /;
/** A diagnostic of the "Diagnostics:" section, under its resource's header. */
const SECTION_ERROR = /^ {4}error: /;
/** The "Resources:" summary's count of the steps that failed. */
const ERRORED_COUNT = /^ {4}\d+ errored$/;
/** The engine's report of a plugin that ended without acknowledging its stop. */
const PROVIDER_CRASH = /exited prematurely/;
/** Every CSI sequence (colours, which some outputs hold even with `--color never`, a line's erasure, ...). */
const CSI = new RegExp(`${String.fromCharCode(27)}\\[[0-?]*[ -/]*[@-~]`, "g");

export interface CommandOutcome {
  /** The command as a user types it (`pulumi up --yes`), for the message. */
  command: string;
  /** Its exit code (null: ended by a signal). */
  code: number | null;
  /** Everything it printed, stdout and stderr. */
  output: string;
}

/** The lines of `outcome`'s output that no test expected (see above); empty when there are none. */
export function unexpectedErrorLines(outcome: CommandOutcome, expectErrors = false): string[] {
  const checkErrors = outcome.code === 0 && !expectErrors;
  const found: string[] = [];
  /** The top-level line the current one is under ("Diagnostics:", "Outputs:", "Resources:", ...). */
  let section = "";
  for (const line of outcome.output.replace(CSI, "").split(/\r\n|\r|\n/)) {
    if (/^\S/.test(line)) section = line.trimEnd();
    const isError =
      PROVIDER_CRASH.test(line) ||
      (checkErrors &&
        (TOP_LEVEL_ERROR.test(line) ||
          (section === "Diagnostics:" && SECTION_ERROR.test(line)) ||
          (section === "Resources:" && ERRORED_COUNT.test(line))));
    if (isError) found.push(line.trim());
  }
  return [...new Set(found)];
}

/** The failure of `outcome` when it shows an error no test expected, quoting the lines and the whole output. */
export function unexpectedErrorsFailure(outcome: CommandOutcome, expectErrors = false): Error | undefined {
  const lines = unexpectedErrorLines(outcome, expectErrors);
  if (lines.length === 0) return undefined;
  return new Error(
    `\`${outcome.command}\` exited ${outcome.code} and printed what a user reads as an error ` +
      `(a test that expects one says so: expectErrors):\n  ${lines.join("\n  ")}\n--- its output:\n${outcome.output}`,
  );
}

/** Throws unexpectedErrorsFailure's error, if any. */
export function assertNoUnexpectedErrors(outcome: CommandOutcome, expectErrors = false): void {
  const failure = unexpectedErrorsFailure(outcome, expectErrors);
  if (failure) throw failure;
}
