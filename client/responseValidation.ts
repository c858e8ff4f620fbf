/**
 * Checks a 2xx body against the operation's response schema. A mismatch fails loudly, naming the
 * field, rather than handing Pulumi state a half-shaped object (or one nested too deeply to serialize). The
 * body is returned as it came: unknown extra fields are kept (TypeBox's Check never strips), so newer
 * platform fields survive.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { responseError } from "./errors";
import type { OperationKey } from "../api/operations";
import { nestingIssue } from "../api/nestingDepth";
import { describeFound, firstSchemaIssue } from "../api/schemaIssues";
import type { CallResult } from "./transport";

/** Returns `result.body` typed as the schema, or throws CodeSecResponseError naming the failing field. */
export function validateResponse<S extends TSchema>(
  schema: S,
  result: CallResult,
  operation: OperationKey,
): Static<S> {
  // Bounded first: the caller's JSON.stringify or Pulumi's serialization would overflow on a deeper answer.
  const issue = nestingIssue(result.body) ?? firstSchemaIssue(schema, result.body);
  if (issue === undefined) return result.body;
  // The path holds the answer's own keys (of a record, or an unknown field): server text like any other.
  const path = result.sanitize(issue.path, 200);
  const where = path === "" ? "the response body" : path;
  const found =
    issue.kind === "missing"
      ? "it is missing"
      : issue.kind === "notAllowed"
        ? "it is not a known field"
        : issue.kind === "tooDeep"
          ? `got ${describeFound(issue.value)} at level ${issue.depth}`
          : `got ${describeFound(issue.value, 60, result.sanitize)}`;
  throw responseError(
    operation,
    result,
    `${where} must be ${issue.expected}, but ${found}`,
    path,
    issue.expected,
  );
}
