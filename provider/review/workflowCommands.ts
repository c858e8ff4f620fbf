/**
 * What the review and drift commands print reaches a GitHub Actions log, where the runner runs
 * `::name ...::` at the start of a line (after spaces) and `##[name ...]` anywhere in one. Text from a
 * program, a state or the platform must start neither, in any format the commands print.
 */

const ZERO_WIDTH_SPACE = "\u200b";

// Spaces the runner trims before `::` (JavaScript's `\s`, and the next-line control).
const COMMAND_AT_LINE_START = /^([\s\u0085]*)::/gmu;

/**
 * Text (Markdown, plain lines, a workflow command's data) with `##[` and a line-leading `::` broken by a
 * zero-width space, which shows nothing.
 */
export function withoutWorkflowCommands(text: string): string {
  return text
    .replaceAll("##[", `##${ZERO_WIDTH_SPACE}[`)
    .replace(COMMAND_AT_LINE_START, `$1${ZERO_WIDTH_SPACE}::`);
}

/**
 * JSON (one document, pretty or not) that parses to the same value with no `##[` in it: the `#` before
 * `[` written as its escape. Its lines start with a space, a bracket, a quote or a value, never `::`.
 */
export function jsonWithoutWorkflowCommands(json: string): string {
  return json.replaceAll("##[", "#\\u0023[");
}
