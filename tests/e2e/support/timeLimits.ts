/**
 * The time limits of end-to-end tests, from what each waits for (kept apart from the harness, which
 * sets up a scratch folder when loaded, so that docs checks can read them).
 */

/**
 * How long one Pulumi CLI command of these tests may take before its test gives up: a preview or up of a
 * few resources takes 5-30 s on a quiet 2-core machine (the program's TypeScript compile included), and
 * was seen at 60-70 s on one loaded by other jobs. It bounds a failing test; it measures nothing.
 */
export const CLI_COMMAND_LIMIT_MS = 240_000;
/** Likewise for each resource a command of a large stack steps through (0.1 s quiet, 0.3 s loaded). */
export const RESOURCE_STEP_LIMIT_MS = 1_000;

/**
 * The time limit of a test, from what it waits for: `commands` Pulumi CLI commands (npm installs and
 * compiles count as one each) stepping through `resourceSteps` resources in all. Mocha's default for the
 * end-to-end suite (tests/e2e/.mocharc.js, 600 s) covers a test of up to two commands of a small stack.
 */
export function timeLimitFor(commands: number, resourceSteps = 0): number {
  return commands * CLI_COMMAND_LIMIT_MS + resourceSteps * RESOURCE_STEP_LIMIT_MS;
}
