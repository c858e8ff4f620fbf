/**
 * A function's arguments, validated like the client's (a missing argument object, null, a wrong type or a
 * misspelt name fails before any call, naming the field), for every way a function is called: the
 * program's Promise and Output forms (./invokeOptions.ts) and the native plugin's Invoke.
 */
import type { Static, TObject } from "@sinclair/typebox";
import { validateArguments } from "../../client/argumentValidation";
import type { FunctionDefinition } from "./definition";
import { NoArguments } from "./definitions";

/** The arguments of a call of `definition`, checked; throws CodeSecInputError naming the first bad field. */
export function functionArguments<A extends TObject | undefined, R extends TObject>(
  definition: FunctionDefinition<A, R>,
  args: unknown,
): A extends TObject ? Static<A> : Record<string, never> {
  return validateArguments({ name: definition.name }, definition.args ?? NoArguments, args, {
    optional: definition.argsOptional,
  }) as A extends TObject ? Static<A> : Record<string, never>;
}
