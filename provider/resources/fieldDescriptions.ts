/** Descriptions of the fields every resource kind has, written once for all of their docs. */

export const DEPLOYMENT_ID_DESCRIPTION = "Deployment (organization) id.";

export const CONNECTION_DESCRIPTION =
  "Which credentials to use: the name of a connection in stack config `codesec:connections` (for a second " +
  "organization in one stack), or, deprecated, an object `{ baseUrl, token }`. Without it: stack config " +
  "`codesec:baseUrl` / `codesec:token`, then `CODESEC_BASE_URL` / `CODESEC_TOKEN`.";

export const TRIGGERS_DESCRIPTION =
  "Any value; a change applies the resource again (the platform cannot read it back, so this is how to " +
  "force a re-apply).";

export const PLATFORM_DESCRIPTION =
  "The platform this resource was created on (the base URL of its connection then). When the connection " +
  "later points to another platform, every step that would reach it stops until you move the stack on " +
  "purpose with stack config `codesec:movedFrom` (docs/credentials.md).";
