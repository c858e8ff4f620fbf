/**
 * Advice for the one failure the engine's credential handling makes likely: `pulumi refresh` and
 * `pulumi destroy` configure the provider from its configuration recorded at the last `pulumi up` (the
 * dynamic provider's stack config, the native default provider's, an explicit Provider's inputs), so
 * after a token rotation they still send the old token until an `up` records the new one (or the command
 * runs the program with `--run-program`).
 */
import { CodeSecApiError } from "../../client";
import {
  CONFIG_ORIGIN_LABEL_PATTERN,
  STACK_CONFIG,
  type ConfigOrigin,
  type ResolvedConnection,
} from "../connection";
import { patternAround } from "../literalPattern";

/** What the engine does with the recorded token, and what to do: the advice after where it was rotated. */
const ROTATION_STEPS =
  "`pulumi refresh` and `pulumi destroy` use the credentials recorded at the last `pulumi up`. Run " +
  "`pulumi up` once with the new token (it records it without changing any resource), or add " +
  "`--run-program` to the refresh or destroy, then try again.";

/** The advice after where the token was rotated (an origin's label). */
const adviceAfter = (label: string) => `If the token was rotated in ${label}: ${ROTATION_STEPS}`;

/** The advice, naming where the provider's token is set in `origin`'s words (`stack config`, a Provider). */
export function rotationAdvice(origin: ConfigOrigin): string {
  return adviceAfter(origin.label);
}

/** The default and the dynamic provider's advice: the token rotated in stack config. */
export const ROTATION_ADVICE = rotationAdvice(STACK_CONFIG);

/**
 * The advice in any origin's words, as a regular expression: only a label the provider writes
 * ({@link CONFIG_ORIGIN_LABEL_PATTERN}), so a 401 whose quoted platform message says "If the token was
 * rotated in ..." keeps that text as its own.
 */
const ADVICE_PATTERN = patternAround(adviceAfter("\u0000"), "\u0000", CONFIG_ORIGIN_LABEL_PATTERN);

/**
 * A message's rotation advice (every occurrence, in its origin's words) and the message without it, for a
 * report that gives each advice once: `text` joins what was around the advice with one space.
 */
export function splitRotationAdvice(message: string): { text: string; advice: string[] } {
  // A new expression each call: a shared global one keeps its lastIndex between calls.
  const advice = message.match(new RegExp(ADVICE_PATTERN, "g")) ?? [];
  const text = message
    .split(new RegExp(ADVICE_PATTERN))
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join(" ");
  return { text, advice };
}

// The errors that carry the advice already (by identity: their message may have grown since).
const advised = new WeakSet<Error>();

/**
 * Runs a refresh or destroy step, adding the rotation advice to a 401 once (the steps of one refresh share
 * a failed lookup: the token owner's id is fetched once per client, so the same error can pass through here
 * for every UserRole of the stack). Only when `connection`'s token came from its origin's settings (stack
 * config, a Provider's inputs), in that origin's words: those are what the engine records at `pulumi up`.
 * A token from the environment is read by the provider itself and always current, and a connection
 * object's reaches the state only with the resource's next update: a `pulumi up` records neither.
 */
export async function withRotationAdvice<T>(
  step: () => Promise<T>,
  connection: Pick<ResolvedConnection, "origin" | "fromOrigin">,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (
      connection.fromOrigin &&
      error instanceof CodeSecApiError &&
      error.status === 401 &&
      !advised.has(error)
    ) {
      advised.add(error);
      error.message = `${error.message} ${rotationAdvice(connection.origin)}`;
    }
    throw error;
  }
}
