/**
 * Advice for the one failure the engine's credential handling makes likely: `pulumi refresh` and
 * `pulumi destroy` configure the dynamic provider from the stack config recorded at the last
 * `pulumi up`, so after a token rotation they still send the old token until an `up` records the new
 * one (or the command runs the program with `--run-program`).
 */
import { CodeSecApiError } from "../../sdk";

export const ROTATION_ADVICE =
  "If the token was rotated in stack config: `pulumi refresh` and `pulumi destroy` use the credentials " +
  "recorded at the last `pulumi up`. Run `pulumi up` once with the new token (it records it without " +
  "changing any resource), or add `--run-program` to the refresh or destroy, then try again.";

// The errors that carry the advice already (by identity: their message may have grown since).
const advised = new WeakSet<Error>();

/**
 * Runs a refresh or destroy step, adding the rotation advice to a 401, once: the steps of one refresh
 * share a failed lookup (the token owner's id is fetched once per client), so the same error can pass
 * through here for every UserRole of the stack.
 */
export async function withRotationAdvice<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof CodeSecApiError && error.status === 401 && !advised.has(error)) {
      advised.add(error);
      error.message = `${error.message} ${ROTATION_ADVICE}`;
    }
    throw error;
  }
}
