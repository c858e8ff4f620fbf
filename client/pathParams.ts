/**
 * Fills an operation's path template from validated arguments. The ids were checked against their
 * schemas (NumericId, OpaqueId in api/schemas/common.ts) before this runs, which refuse anything a
 * proxy could normalize into another path (`..`, `/`, `%`); encoding here is the second line.
 */
import { OPERATIONS, type OperationKey } from "../api/operations";

/** Characters RFC 3986 never encodes in a path segment (`.` alone or `..` are refused by the schemas). */
const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

/** RFC 3986 strict: also encodes `!'()*`, which encodeURIComponent leaves alone. */
export function encodePathSegment(value: string): string {
  // Most ids (numeric ones, UUIDs) need no encoding at all: skip the work for them.
  if (UNRESERVED.test(value)) return value;
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The operation's path with each `{param}` replaced by the encoded argument of that name. */
export function buildPath(operation: OperationKey, params: Readonly<Record<string, unknown>>): string {
  let path: string = OPERATIONS[operation].path;
  for (const name of Object.keys(OPERATIONS[operation].pathParams)) {
    const value = params[name];
    if (typeof value !== "string") {
      // Unreachable after argument validation; a programming error if it happens.
      throw new TypeError(`${operation}: path parameter ${name} was not validated`);
    }
    path = path.replace(`{${name}}`, encodePathSegment(value));
  }
  return path;
}
