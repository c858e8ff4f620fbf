/**
 * What a Pulumi CLI command's output must not hold, whatever its test asserts: a command that exited 0 is
 * a success only when the user sees none of an error (an `error:` diagnostic, a count of resources that
 * `errored`), and no command may show a provider's crash (the engine's "exited prematurely" report, which
 * it prints when a plugin it stops never acknowledged its Cancel). The harness (harness.ts) checks every
 * command it runs; a test that expects an error in a command that exits 0 says so (`expectErrors`).
 * A command that exits non-zero fails its test unless the test expects the failure, so only the crash
 * report is looked for there.
 */

/** An `error:` diagnostic (the CLI indents it under its resource). */
const ERROR_DIAGNOSTIC = /^\s*error:.*$/gm;
/** A summary's count of the steps that failed (`1 errored`). */
const ERRORED_COUNT = /^.*\b\d+ errored\b.*$/gm;
/** The engine's report of a plugin that ended without acknowledging its stop. */
const PROVIDER_CRASH = /^.*exited prematurely.*$/gm;
/** Colour codes, which some outputs hold even with `--color never`. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

export interface CommandOutcome {
  /** The CLI's arguments, for the message. */
  args: readonly string[];
  /** Its exit code (null: ended by a signal). */
  code: number | null;
  /** Everything it printed, stdout and stderr. */
  output: string;
}

/** The lines of `outcome`'s output that no test expected (see above); empty when there are none. */
export function unexpectedErrorLines(outcome: CommandOutcome, expectErrors = false): string[] {
  const output = outcome.output.replace(COLOUR, "");
  const patterns =
    outcome.code === 0 && !expectErrors
      ? [PROVIDER_CRASH, ERROR_DIAGNOSTIC, ERRORED_COUNT]
      : [PROVIDER_CRASH];
  const lines = patterns.flatMap((pattern) => [...output.matchAll(pattern)].map((m) => m[0].trim()));
  return [...new Set(lines)];
}

/** The failure of `outcome` when it shows an error no test expected, quoting the lines and the whole output. */
export function unexpectedErrorsFailure(outcome: CommandOutcome, expectErrors = false): Error | undefined {
  const lines = unexpectedErrorLines(outcome, expectErrors);
  if (lines.length === 0) return undefined;
  return new Error(
    `\`pulumi ${outcome.args.join(" ")}\` exited ${outcome.code} and printed what a user reads as an error ` +
      `(a test that expects one says so: expectErrors):\n  ${lines.join("\n  ")}\n--- its output:\n${outcome.output}`,
  );
}

/** Throws unexpectedErrorsFailure's error, if any. */
export function assertNoUnexpectedErrors(outcome: CommandOutcome, expectErrors = false): void {
  const failure = unexpectedErrorsFailure(outcome, expectErrors);
  if (failure) throw failure;
}
