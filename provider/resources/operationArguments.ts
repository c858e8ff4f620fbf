/**
 * The arguments of a client operation taken from a resource's inputs: every input the operation's
 * arguments schema names, as the program gave it. The API schema is the one list of what the call sends,
 * so an input added to both is sent without another list to keep in step; the client then checks them.
 */
import type { Static, TObject } from "@sinclair/typebox";

export function operationArguments<S extends TObject>(schema: S, inputs: object): Static<S> {
  const values = inputs as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(schema.properties)
      .filter((name) => values[name] !== undefined)
      .map((name) => [name, values[name]]),
  );
}
