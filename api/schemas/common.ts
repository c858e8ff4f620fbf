/**
 * Building blocks shared by every schema. Each API shape is defined once, as a TypeBox schema: the
 * TypeScript types are derived from it (`Static<>`), the client validates responses with it, and the
 * emulator validates requests and serializes responses with it.
 */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { explainFailuresOf, registerFormat } from "../schemaIssues";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * Whether `value` is an RFC 3339 date-time naming a real instant: a calendar date that exists
 * (no 2025-02-30, leap years counted), hours 00-23, minutes and seconds 00-59, offsets up to 23:59.
 * `Date.parse` alone is not enough: it rolls 2025-02-30 over to March 2. The client, `check` and the
 * emulator all use this one rule.
 */
export function isCalendarDateTime(value: string): boolean {
  const match = RFC3339.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6]) > 59) return false;
  if (match[9] !== undefined && (Number(match[9]) > 23 || Number(match[10]) > 59)) return false;
  return true;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1-12) of `year`, leap years counted (Gregorian, as Date.UTC counts them). */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

// Formats are checked only when they are registered. The emulator checks requests with these same
// compiled checks (api/schemaIssues' checkerFor), so it needs no registration of its own.
registerFormat("date-time", isCalendarDateTime);

/** RFC 3339 date-time string naming a real instant, e.g. `2026-01-02T03:04:05Z`. */
export const DateTime = explainFailuresOf(
  Type.String({
    format: "date-time",
    description: "an RFC 3339 date-time with a real calendar date, such as 2026-01-02T03:04:05Z",
  }),
  (value) =>
    typeof value === "string" && RFC3339.test(value) ? "must name a date and time that exist" : undefined,
);

/** A numeric identifier carried as a string (`"42"`). */
export const NumericId = explainFailuresOf(
  Type.String({
    pattern: "^[0-9]+$",
    minLength: 1,
    maxLength: 20,
    description: "a numeric id (digits only)",
  }),
  (value) => {
    if (typeof value !== "string") return undefined;
    if (value.trim() === "") return "must not be empty";
    if (value.length > 20) return "must be at most 20 digits long";
    return undefined;
  },
);

// A lone UTF-16 surrogate cannot be percent-encoded; written so that it means the same with and
// without the `u` flag (TypeBox compiles patterns without it; a JSON Schema validator such as Ajv, reading
// the same schema, with it).
const LONE_SURROGATE = "[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]";

/**
 * An opaque identifier that travels in a URL path. Proxies and servers may decode and normalize a path
 * before routing, so an id like `..`, `a/b` or `%2e%2e` could reach another object than the one named:
 * such ids are refused, not encoded. Also refused: a blank id, surrounding spaces, control characters
 * (C0 and C1) and lone surrogates. The client percent-encodes whatever it sends.
 */
export const OpaqueId = explainFailuresOf(
  Type.String({
    pattern:
      "^(?!\\.$)(?!.*\\.\\.)(?!\\s)(?!.*\\s$)(?!.*(?:" +
      LONE_SURROGATE +
      "))[^/\\\\?#%\\u0000-\\u001f\\u007f-\\u009f]+$",
    minLength: 1,
    maxLength: 200,
    description:
      "a non-empty id without surrounding spaces, '/', '\\', '?', '#', '%', control characters, '..', or '.' alone",
  }),
  explainOpaqueId,
);

function explainOpaqueId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.trim() === "") return "must not be blank";
  if (value.length > 200) return "must be at most 200 characters long";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return "must not contain control characters";
  for (const ch of ["/", "\\", "?", "#"]) {
    if (value.includes(ch)) return `must not contain ${JSON.stringify(ch)}`;
  }
  if (value.includes("%")) return 'must not contain "%" (pass the raw id: the client percent-encodes it)';
  if (value === "." || value.includes("..")) return 'must not be "." or contain ".."';
  if (value.trim() !== value) return "must not start or end with spaces";
  if (new RegExp(LONE_SURROGATE).test(value)) return "must be well-formed text (it holds a lone surrogate)";
  return undefined;
}

/** The organization role enumeration. */
export const ORG_ROLES = [
  "ORG_ROLE_ADMIN",
  "ORG_ROLE_MEMBER",
  "ORG_ROLE_IMPERSONATOR",
  "ORG_ROLE_READONLY",
] as const;
export const OrgRole = Type.Union(
  ORG_ROLES.map((role) => Type.Literal(role)),
  { description: `one of ${ORG_ROLES.join(", ")}` },
);
export type OrgRole = Static<typeof OrgRole>;

/** Maturity of an operation, as the platform's versioning section defines it. */
export type Maturity = "experimental" | "beta" | "stable";
