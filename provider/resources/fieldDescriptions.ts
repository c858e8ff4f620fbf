/** Descriptions of the fields every resource kind has, written once for all of their docs. */

export const DEPLOYMENT_ID_DESCRIPTION = "Deployment (organization) id.";

export const CONNECTION_DESCRIPTION =
  "Which credentials to use: the name of a connection in stack config `codesec:connections` (for a second " +
  "organization in one stack), or, deprecated, an object `{ baseUrl, token }`. Without it: stack config " +
  "`codesec:baseUrl` / `codesec:token`, then `CODESEC_BASE_URL` / `CODESEC_TOKEN`.";

export const TRIGGERS_DESCRIPTION =
  "Any value; changing it applies again (the platform cannot be read back, so this is how to force a re-apply).";
