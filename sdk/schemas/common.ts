/**
 * Building blocks shared by every schema. Each API shape is defined once, as a TypeBox schema: the
 * TypeScript types are derived from it (`Static<>`), the client validates responses with it, and the
 * emulator validates requests and serializes responses with it.
 */
import { FormatRegistry, Type, type Static } from "@sinclair/typebox";

// TypeBox checks formats only when they are registered; Fastify's Ajv has its own copy of the same rule.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
if (!FormatRegistry.Has("date-time")) {
  FormatRegistry.Set("date-time", (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
}

/** ISO 8601 date-time string in UTC, e.g. `2026-01-02T03:04:05Z`. */
export const DateTime = Type.String({ format: "date-time" });

/** A numeric identifier carried as a string (`"42"`). */
export const NumericId = Type.String({
  pattern: "^[0-9]+$",
  minLength: 1,
  maxLength: 20,
  description: "a numeric id (digits only)",
});

/**
 * An opaque identifier that travels in a URL path: non-empty, no `/`, `\\`, `?`, `#`, `%`, `..` or
 * control characters (the client also percent-encodes whatever it sends).
 */
export const OpaqueId = Type.String({
  pattern: "^(?!.*\\.\\.)[^/\\\\?#%\\u0000-\\u001f\\u007f]+$",
  minLength: 1,
  maxLength: 200,
  description: "a non-empty id without '/', '\\', '?', '#', '%', '..' or control characters",
});

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
