/** The fields every resource kind has (or several share), each declared once for all of their definitions. */
import { Type } from "../../api/typeBuilder";
import { NumericId } from "../../api/schemas/common";
import { ConnectionInput } from "../connection";
import type { InputField, OutputField } from "./definition";

export const deploymentIdField = {
  schema: NumericId,
  description: "Deployment (organization) id.",
  onChange: "replace",
} as const satisfies InputField;

/**
 * Which source a connection names, never its credentials: a new token in the same place is no change, but
 * moving from the deprecated object form to a name (or to another name, or to the provider's default) is
 * one, recorded with no call, so that the state drops a stored token and refresh and destroy follow the
 * new source.
 */
function connectionSource(connection: unknown): string {
  if (connection === undefined || connection === null) return "default";
  return typeof connection === "string" ? `name ${connection}` : "explicit object";
}

export const connectionField = {
  schema: Type.Optional(ConnectionInput),
  description:
    "Which credentials to use: the name of a connection in the provider's `connections` (stack config " +
    "`codesec:connections`, for a second organization in one stack), or, deprecated, an object " +
    "`{ baseUrl, token }`. Without it: the provider's `baseUrl` / `token` (stack config `codesec:baseUrl` / " +
    "`codesec:token`), then `CODESEC_BASE_URL` / `CODESEC_TOKEN`. A change of source is recorded with no " +
    "API call; a new token in the same place is no change.",
  onChange: "record",
  // The object form holds a token; a name holds none and stays readable in diffs.
  secret: (value: unknown) => value !== null && typeof value === "object",
  differs: (old: unknown, next: unknown) => connectionSource(old) !== connectionSource(next),
} as const satisfies InputField;

/** `triggers`, with what re-applying means for the kind. */
export function triggersField(appliesAgain: string) {
  return {
    schema: Type.Optional(Type.Unknown()),
    description:
      `Any value; a change ${appliesAgain} (the platform cannot read it back, so this is how to force a ` +
      "re-apply).",
    onChange: "update",
  } as const satisfies InputField;
}

export const platformOutput = {
  schema: Type.String(),
  description:
    "The platform this resource was created on (the base URL of its connection then). When the connection " +
    "later points to another platform, every step that would reach it stops until you move the stack on " +
    "purpose with the provider's `movedFrom` (stack config `codesec:movedFrom`; docs/credentials.md).",
} as const satisfies OutputField;
