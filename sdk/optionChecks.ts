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
