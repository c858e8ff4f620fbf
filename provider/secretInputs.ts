/**
 * Inputs that are credentials or one-time codes, in any resource: stored as secrets (in inputs and
 * outputs alike) and never echoed in a check failure.
 */
export const SECRET_INPUTS = ["connection", "code"] as const;
