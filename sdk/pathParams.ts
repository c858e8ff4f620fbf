/**
 * Path parameters: validated before any request, then percent-encoded into the catalogue's path
 * template. Validation is stricter than encoding needs, because proxies and servers may decode and
 * normalize a path before routing: an id like `..` or `a%2F..%2Fb` could otherwise reach another
 * object than the caller named.
 */
import { CodeSecInputError, type OperationRef } from "./errors";
import { OPERATIONS, type OperationKey, type PathParamKind } from "./operations";
import { describeValue } from "./redaction";

/** Same bounds as NumericId / OpaqueId in sdk/schemas/common.ts. */
const MAX_NUMERIC_LENGTH = 20;
const MAX_OPAQUE_LENGTH = 200;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const FORBIDDEN: readonly string[] = ["/", "\\", "?", "#"];

/** The reference of an operation, for errors. */
export function operationRef(operation: OperationKey): OperationRef {
  return { operation, operationNumber: OPERATIONS[operation].number };
}

/** Checks one path parameter and returns it unchanged (not yet encoded). */
export function validatePathParam(
  operation: OperationKey,
  name: string,
  kind: PathParamKind,
  value: unknown,
): string {
  const fail = (message: string): never => {
    throw new CodeSecInputError(name, message, operationRef(operation));
  };
  const what = kind === "numeric" ? "a numeric id (digits only)" : "a non-empty id";
  if (value === undefined || value === null) fail(`${name} is required: pass ${what} as a string`);
  if (typeof value !== "string")
    fail(`${name} must be a string holding ${what}, got ${describeValue(value)}`);
  const id = value as string;
  if (id.trim() === "") fail(`${name} must not be empty, got ${describeValue(id)}`);
  if (kind === "numeric") {
    if (!/^[0-9]+$/.test(id)) fail(`${name} must be a numeric id (digits only), got ${describeValue(id)}`);
    if (id.length > MAX_NUMERIC_LENGTH) fail(`${name} must be at most ${MAX_NUMERIC_LENGTH} digits long`);
    return id;
  }
  if (CONTROL.test(id)) fail(`${name} must not contain control characters, got ${describeValue(id)}`);
  for (const ch of FORBIDDEN) {
    if (id.includes(ch)) fail(`${name} must not contain ${JSON.stringify(ch)}, got ${describeValue(id)}`);
  }
  if (id.includes("..") || id === ".")
    fail(`${name} must not be "." or contain "..", got ${describeValue(id)}`);
  if (id.includes("%")) {
    const decoded = decodedDanger(id);
    fail(
      decoded === undefined
        ? `${name} must not contain "%": pass the raw id, the client percent-encodes it (got ${describeValue(id)})`
        : `${name} must not contain percent-encoded ${decoded}, got ${describeValue(id)}`,
    );
  }
  if (id.length > MAX_OPAQUE_LENGTH) fail(`${name} must be at most ${MAX_OPAQUE_LENGTH} characters long`);
  try {
    encodeURIComponent(id);
  } catch {
    fail(`${name} must be well-formed Unicode text (it contains a lone surrogate)`);
  }
  return id;
}

// Names what a %-sequence smuggles in, for a precise message; any "%" is refused regardless.
function decodedDanger(id: string): string | undefined {
  let decoded = id;
  for (let round = 0; round < 3 && /%[0-9a-f]{2}/i.test(decoded); round++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      return undefined;
    }
  }
  if (decoded === id) return undefined;
  if (CONTROL.test(decoded)) return "control characters";
  for (const ch of [...FORBIDDEN, "%"]) if (decoded.includes(ch)) return JSON.stringify(ch);
  if (decoded.includes("..") || decoded === ".") return '"." segments';
  return undefined;
}

/** RFC 3986 strict: also encodes `!'()*`, which encodeURIComponent leaves alone. */
export function encodePathSegment(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Validates every parameter the operation's template declares, then fills the template.
 * `params` comes from untyped callers too, so each value is checked, not trusted.
 */
export function buildPath(operation: OperationKey, params: Readonly<Record<string, unknown>>): string {
  const spec = OPERATIONS[operation];
  let path: string = spec.path;
  for (const [name, kind] of Object.entries(spec.pathParams) as [string, PathParamKind][]) {
    const id = validatePathParam(operation, name, kind, params[name]);
    path = path.replace(`{${name}}`, encodePathSegment(id));
  }
  return path;
}
