/**
 * The form of the one definition of a data-source function: its arguments' and result's schemas (the API
 * definitions', with their field descriptions), what it is, and how it calls the platform. The Promise and
 * Output forms of the dynamic package, the native plugin's Invoke, `schema.json`, the generated TypeScript
 * and the reference docs all come from it.
 */
import type { Static, TObject } from "@sinclair/typebox";
import type { CodeSecClient } from "../../client";

export interface FunctionDefinition<
  A extends TObject | undefined = TObject | undefined,
  R extends TObject = TObject,
> {
  /** `getScan`: the function, `codesec:index:getScan`. */
  readonly name: string;
  /** What it returns, for the TSDoc, the schema and the docs (Markdown). */
  readonly description: string;
  /**
   * The platform operation and its maturity, from the catalogue (`describeOperation`):
   * "read a scan (`GET ...`, beta)".
   */
  readonly operations: string;
  readonly maturity: "experimental" | "beta";
  /** The arguments' schema; undefined when it takes none. */
  readonly args: A;
  /** Whether every argument is optional (the forms take `args?`). */
  readonly argsOptional: boolean;
  /** The result's schema. */
  readonly result: R;
  /** More named shapes the docs show (a list item's fields). */
  readonly more?: Readonly<Record<string, TObject>>;
  /**
   * Examples of the Promise and the Output form, against the emulator's default fixtures (TypeScript, in a
   * program whose `codesec` and `pulumi` are imported): the TSDoc examples, compiled by a test.
   */
  readonly example: string;
  readonly outputExample: string;
  /** Calls the platform with validated arguments. */
  readonly invoke: (
    client: CodeSecClient,
    args: A extends TObject ? Static<A> : Record<string, never>,
  ) => Promise<Static<R>>;
}

/** Declares a function; the identity of its argument is kept so that every derivation is typed. */
export function defineFunction<A extends TObject | undefined, R extends TObject>(
  definition: FunctionDefinition<A, R>,
): FunctionDefinition<A, R> {
  return definition;
}
