/**
 * Request validation: the same rules and the same words as the client. Every route's body, path
 * parameters and query string are checked with the API's compiled TypeBox checks (`checkerFor`, so the
 * calendar date-time rule, the OpaqueId/NumericId rules... are exactly the client's) and the first
 * problem is worded by the API's one formatter (`firstSchemaIssue` + `issueMessage`): `body.filters.ids[3]
 * must be ...`, `path parameter scanId ...`, `query parameter userId ...`. Nothing is coerced, removed or
 * defaulted: a request either fits its schema as sent or answers 400 INVALID_ARGUMENT.
 */
import type { TSchema } from "@sinclair/typebox";
import type { FastifySchemaCompiler } from "fastify";
import {
  OPERATIONS,
  type RequestPart,
  checkerFor,
  firstSchemaIssue,
  issueMessage,
  requestPartSubject,
} from "pulumi-codesec/api";
import { apiError } from "./errors";
import { fastifyPath } from "./operationRoute";

const PARTS: readonly string[] = ["body", "params", "querystring"] satisfies RequestPart[];

/** Who a route's messages speak of: the operation's name (`getScan`), else `METHOD /path` (control routes). */
function routeName(method: string, url: string): string {
  const operation = Object.entries(OPERATIONS).find(
    ([, op]) => op.method === method && fastifyPath(op.path) === url,
  );
  return operation ? operation[0] : `${method} ${url}`;
}

/** Fastify's validator compiler for the emulator: TypeBox checks worded by `pulumi-codesec/api`. */
export const schemaValidatorCompiler: FastifySchemaCompiler<TSchema> = ({
  schema,
  method,
  url,
  httpPart,
}) => {
  if (httpPart === undefined || !PARTS.includes(httpPart)) {
    throw new Error(`the emulator validates no ${String(httpPart)} (route ${method} ${url})`);
  }
  const subject = requestPartSubject(httpPart as RequestPart, routeName(method, url));
  // Compiled now, at route registration (a schema TypeBox cannot compile fails the start, not a request);
  // firstSchemaIssue reuses this compiled check.
  checkerFor(schema);
  return (data: unknown) => {
    // Fastify hands an absent body over as null: say "required", as for any missing value.
    const issue = firstSchemaIssue(schema, httpPart === "body" && data === null ? undefined : data);
    // `true` leaves the request as it is: nothing is coerced, removed or defaulted.
    return issue === undefined ? true : { error: apiError("INVALID_ARGUMENT", issueMessage(issue, subject)) };
  };
};
