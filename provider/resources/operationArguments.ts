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
 * Which call sends: create and update apply the resource; destroy (or a user leaving a map), where two
 * inputs share an argument, sends the one whose change is only recorded, such as a role on destroy.
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

/** The step whose call sends an input that shares its request name with another: see below. */
function stepOf(field: InputField): SendingStep {
  return field.onChange === "record" ? "destroy" : "apply";
}

/** Whether the input is a map the kind sends one entry at a time (through `given`), never as a whole. */
function isMap(field: InputField): boolean {
  return field.schema.patternProperties !== undefined;
}

/**
 * An input sent as an argument no other input shares is sent by every call that has it. Inputs sharing one
 * (`role` and `roleOnDestroy`, both sent as `newRole`) take turns: the input whose change is only recorded
 * is sent by destroy, the other by create and update, and neither ever in the other's place (a destroy with
 * no role on destroy sends no role). A map is never sent as its entries' argument: the kind gives each entry.
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
    const sentAsName = Object.entries(fields).filter(([input, field]) => (field.sentAs ?? input) === name);
    const shared = new Set(sentAsName.map(([, field]) => stepOf(field))).size > 1;
    const input = sentAsName.find(
      ([input, field]) => (!shared || stepOf(field) === step) && !isMap(field) && values[input] !== undefined,
    );
    return input === undefined ? undefined : values[input[0]];
  };
  return Object.fromEntries(
    Object.keys(schema.properties)
      .map((name) => [name, argument(name)] as const)
      .filter(([, value]) => value !== undefined),
  );
}
