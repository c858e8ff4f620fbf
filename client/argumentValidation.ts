/**
 * Checks of a method's argument object against its schema (api/schemas), before any request. Callers
 * may be untyped JavaScript or values straight from Pulumi config, so nothing is trusted: a missing
 * argument object, a wrong type, a bad id, an unknown (misspelt) argument, a value nested deeper than
 * MAX_NESTING_DEPTH levels all fail with a `CodeSecInputError` naming the field. The provider's `check`
 * validates resource inputs with the same field schemas and the same message formatter, so preview and
 * apply give one verdict.
 */
import type { Static, TObject } from "@sinclair/typebox";
import { CodeSecInputError, type OperationRef } from "./errors";
import type { OperationKey } from "../api/operations";
import { nestingIssue } from "../api/nestingDepth";
import { describeFound, firstSchemaIssue, issueMessage } from "../api/schemaIssues";

/** Who is checked: a client method (with its operation) or a provider function. */
export interface ArgumentsSubject {
  /** Method or function name, e.g. `getScan`. */
  readonly name: string;
  /** The operation, when the subject is a client method. */
  readonly ref?: OperationRef;
  /** Arguments whose values never appear in a message (the SCM app code). */
  readonly secretFields?: readonly string[];
  /** What the object's fields are called in messages; default `argument`. */
  readonly noun?: "argument" | "option";
}

const subjects = new Map<OperationKey, ArgumentsSubject>();

/**
 * The subject of a client method that calls `operation` (made once per operation: it is on every call's
 * path).
 */
export function operationSubject(
  operation: OperationKey,
  secretFields?: readonly string[],
): ArgumentsSubject {
  if (secretFields !== undefined) return makeSubject(operation, secretFields);
  let subject = subjects.get(operation);
  if (subject === undefined) subjects.set(operation, (subject = makeSubject(operation)));
  return subject;
}

function makeSubject(operation: OperationKey, secretFields?: readonly string[]): ArgumentsSubject {
  return Object.freeze({
    name: operation,
    ref: Object.freeze({ operation }),
    ...(secretFields ? { secretFields } : {}),
  });
}

/** `{ deploymentId, filters?, excludeIds? }`: the argument object's form, for messages. */
export function usageOf(schema: TObject): string {
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties).map((name) => (required.has(name) ? name : `${name}?`));
  return names.length === 0 ? "{}" : `{ ${names.join(", ")} }`;
}

/**
 * Returns `args` typed by the schema, or throws CodeSecInputError naming the first bad field. With
 * `optional`, an omitted (undefined or null) argument object stands for `{}`.
 */
export function validateArguments<S extends TObject>(
  subject: ArgumentsSubject,
  schema: S,
  args: unknown,
  options: { optional?: boolean } = {},
): Static<S> {
  const value = options.optional === true && (args === undefined || args === null) ? {} : args;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CodeSecInputError(
      "args",
      `${subject.name} expects ${subject.noun === "option" ? "an options" : "an argument"} object ${usageOf(schema)}, got ${describeFound(value)}`,
      subject.ref,
    );
  }
  // Bounded first: a value nested thousands of levels deep must not reach a recursive walk.
  const issue = nestingIssue(value) ?? firstSchemaIssue(schema, value);
  if (issue === undefined) return value as Static<S>;
  const message = issueMessage(issue, {
    name: subject.name,
    noun: subject.noun ?? "argument",
    ...(subject.secretFields ? { secretFields: subject.secretFields } : {}),
  });
  throw new CodeSecInputError(issue.path === "" ? "args" : issue.path, message, subject.ref);
}
