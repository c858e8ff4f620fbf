/**
 * Checks of the non-path arguments, done before any request. Callers may be untyped JavaScript (or
 * values straight from Pulumi config), so types are checked at run time, and each failure names the
 * argument. Secret arguments (the SCM app `code`) are never echoed.
 */
import type { TSchema } from "@sinclair/typebox";
import { CodeSecInputError } from "./errors";
import type { OperationKey } from "./operations";
import { operationRef } from "./pathParams";
import { describeValue } from "./redaction";
import { firstSchemaIssue } from "./schemaIssues";

function fail(operation: OperationKey, field: string, message: string): never {
  throw new CodeSecInputError(field, message, operationRef(operation));
}

/** The method's argument object; `usage` shows its expected form, e.g. `{ deploymentId, scanId }`. */
export function argsObject(operation: OperationKey, args: unknown, usage: string): Record<string, unknown> {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    fail(operation, "args", `${operation} expects an argument object ${usage}, got ${describeValue(args)}`);
  }
  return args as Record<string, unknown>;
}

/** Like argsObject, for methods whose argument object may be omitted. */
export function optionalArgsObject(
  operation: OperationKey,
  args: unknown,
  usage: string,
): Record<string, unknown> {
  return args === undefined ? {} : argsObject(operation, args, usage);
}

/** A required non-empty string. With `secret`, the value never appears in the message. */
export function requiredString(
  operation: OperationKey,
  field: string,
  value: unknown,
  options: { secret?: boolean } = {},
): string {
  const shown = options.secret === true ? typeLabel(value) : describeValue(value);
  if (value === undefined || value === null)
    fail(operation, field, `${field} is required (a non-empty string)`);
  if (typeof value !== "string") fail(operation, field, `${field} must be a string, got ${shown}`);
  if ((value as string).trim() === "") fail(operation, field, `${field} must not be empty`);
  return value as string;
}

/** An optional non-empty string: undefined stays undefined. */
export function optionalString(operation: OperationKey, field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : requiredString(operation, field, value);
}

/** One of a fixed set of string values (an enum). */
export function oneOf<T extends string>(
  operation: OperationKey,
  field: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    fail(operation, field, `${field} must be one of ${allowed.join(", ")}, got ${describeValue(value)}`);
  }
  return value as T;
}

/** An optional integer within [min, max]. */
export function optionalInteger(
  operation: OperationKey,
  field: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail(
      operation,
      field,
      `${field} must be an integer between ${min} and ${max}, got ${describeValue(value)}`,
    );
  }
  return value as number;
}

/** An optional value that must match a schema (filters, option objects, id lists). */
export function optionalConforming<S extends TSchema>(
  operation: OperationKey,
  field: string,
  schema: S,
  value: unknown,
): unknown {
  if (value === undefined) return undefined;
  const issue = firstSchemaIssue(schema, value);
  if (issue === undefined) return value;
  const path =
    issue.path === "" ? field : issue.path.startsWith("[") ? field + issue.path : `${field}.${issue.path}`;
  const message =
    issue.kind === "notAllowed"
      ? `${path} is not an allowed field; ${field} accepts ${issue.expected}`
      : issue.kind === "missing"
        ? `${path} is required (${issue.expected})`
        : `${path} must be ${issue.expected}, got ${describeValue(issue.value)}`;
  fail(operation, path, message);
}

/**
 * Last guard before sending: the assembled body must match the operation's body schema. The
 * argument checks above should make this unreachable; it keeps the body and the schema in step.
 */
export function conformingBody<S extends TSchema>(operation: OperationKey, schema: S, body: unknown): void {
  const issue = firstSchemaIssue(schema, body);
  if (issue === undefined) return;
  const field = issue.path === "" ? "body" : issue.path;
  // Only the type is shown: the body may carry a secret (the SCM app code).
  fail(
    operation,
    field,
    `request body field ${field} must be ${issue.expected}, got ${typeLabel(issue.value)}`,
  );
}

function typeLabel(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}
