/**
 * The arguments of a client operation taken from a resource's inputs: every argument the operation's
 * arguments schema names, from the input sent as it (the input of that name, or the one whose `sentAs`
 * names it), as the program gave it. The API schema is the one list of what the call sends and the
 * definition the one place an input's request name is declared, so an input added to both is sent without
 * a change to the kind's implementation; the client then checks them.
 */
import type { Static, TObject } from "@sinclair/typebox";
import type { InputField } from "./definition";

/**
 * Which call sends: create and update apply the resource; destroy (or a user leaving a map) sends the
 * inputs whose change is only recorded, such as a role on destroy.
 */
export type SendingStep = "apply" | "destroy";

export interface ArgumentOptions<S extends TObject> {
  /** Default `apply`. */
  readonly step?: SendingStep;
  /**
   * Arguments the kind works out itself, which take the place of any input sent as them: one entry of a
   * map (a user and that user's role), one write per entry.
   */
  readonly given?: Partial<Static<S>>;
}

/**
 * An input whose change is only recorded is sent by destroy alone, where it takes the place of an input
 * applied as the same argument (`roleOnDestroy` of `role`, both sent as `newRole`).
 */
export function operationArguments<S extends TObject>(
  schema: S,
  inputs: object,
  fields: Readonly<Record<string, InputField>>,
  { step = "apply", given = {} }: ArgumentOptions<S> = {},
): Static<S> {
  const values = inputs as Record<string, unknown>;
  const provided = given as Record<string, unknown>;
  const argument = (name: string): unknown => {
    if (provided[name] !== undefined) return provided[name];
    const sentAsName = Object.entries(fields).filter(
      ([input, field]) => (field.sentAs ?? input) === name && values[input] !== undefined,
    );
    const recorded = sentAsName.find(([, field]) => field.onChange === "record");
    if (step === "destroy" && recorded !== undefined) return values[recorded[0]];
    const applied = sentAsName.find(([, field]) => field.onChange !== "record");
    return applied === undefined ? undefined : values[applied[0]];
  };
  return Object.fromEntries(
    Object.keys(schema.properties)
      .map((name) => [name, argument(name)] as const)
      .filter(([, value]) => value !== undefined),
  );
}
