/** Warnings for deprecated usage, each said once per program run so a large stack is not flooded. */
import * as pulumi from "@pulumi/pulumi";
import { STACK_CONFIG } from "./connection";

let objectConnectionWarned = false;

/**
 * `connection: { baseUrl, token }` still works but puts the token in every resource's state (as a
 * secret) and keeps the one it was created with until the resource's next update; a named connection
 * keeps only its name there and takes its token from stack config, like the default connection.
 */
export function warnObjectConnection(resource?: pulumi.Resource): void {
  if (objectConnectionWarned) return;
  objectConnectionWarned = true;
  void pulumi.log.warn(
    "pulumi-codesec: `connection: { baseUrl, token }` is deprecated: it stores the token in the state of " +
      "every resource that uses it, and a rotated token reaches that state only with the resource's next " +
      `update. Name the connection instead: \`connection: "org2"\`, with ${STACK_CONFIG.howToDefineConnection("org2")}.`,
    resource,
  );
}
