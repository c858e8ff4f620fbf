/**
 * Checks of option objects given to the client and the rate limiter: one wording for every option, and
 * a misspelt option name is an error rather than silently ignored.
 */
import { CodeSecInputError } from "./errors";
import { describeFound } from "../api/schemaIssues";

/** `value` when it is a number within [min, max] (an integer, if asked), `fallback` when undefined. */
export function checkNumber(
  field: string,
  value: unknown,
  fallback: number,
  min: number,
  max: number,
  integer = false,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "an integer" : "a number";
    throw new CodeSecInputError(
      field,
      `${field} must be ${kind} between ${min} and ${max}, got ${describeFound(value)}`,
    );
  }
  return value;
}

/** Throws CodeSecInputError naming the first key of `options` that is not in `allowed`. */
export function checkOptionNames(
  options: object,
  allowed: readonly string[],
  what: string,
  parent?: string,
): void {
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name)) {
      throw new CodeSecInputError(
        parent === undefined ? name : `${parent}.${name}`,
        `unknown ${what} option ${describeFound(name, 60)}; the options are ${allowed.join(", ")}`,
      );
    }
  }
}

/** The longest phrase a caller may give for messages (a deadline label, a setting's name): not a paragraph. */
export const MAX_MESSAGE_LINE_LENGTH = 200;

/**
 * Whether `text` may be a caller's phrase in messages: one non-blank line of at most
 * {@link MAX_MESSAGE_LINE_LENGTH} characters with no control character or line break, which would forge or
 * garble the message it lands in.
 */
export function isMessageLine(text: unknown): text is string {
  return (
    typeof text === "string" &&
    text.trim() !== "" &&
    text.length <= MAX_MESSAGE_LINE_LENGTH &&
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)
  );
}
