/**
 * The one rule for a platform base URL, shared by the client's constructor and the provider's preview
 * check, so that a base URL a preview accepts is the one an apply uses.
 */
import { CodeSecInputError } from "./errors";
import { describeFound } from "../api/schemaIssues";

const EXAMPLE = "an http(s) URL such as https://codesec.example.com";

/**
 * Checks a base URL and returns it normalized: trimmed, origin plus path, no trailing slash.
 * Throws CodeSecInputError (field `baseUrl`) for anything else; the message never echoes credentials
 * or a query, which may carry one.
 */
export function normalizeBaseUrl(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new CodeSecInputError("baseUrl", `baseUrl must be ${EXAMPLE}, got ${describeFound(value)}`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    // Not echoed: a value that is no URL at all may be a token put in the wrong place.
    throw new CodeSecInputError(
      "baseUrl",
      `baseUrl must be ${EXAMPLE}, got a string of ${value.length} characters that is not a URL`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    // Not echoed: the URL holds credentials.
    throw new CodeSecInputError(
      "baseUrl",
      "baseUrl must not contain credentials; pass the token as the token option",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CodeSecInputError(
      "baseUrl",
      `baseUrl must be ${EXAMPLE}, got protocol ${JSON.stringify(url.protocol)}`,
    );
  }
  const shown = `${url.origin}${url.pathname}`;
  if (url.search !== "" || url.hash !== "") {
    throw new CodeSecInputError(
      "baseUrl",
      // Only origin and path are echoed: a query may carry a credential.
      `baseUrl must not have a query or fragment, got ${JSON.stringify(shown)} with one`,
    );
  }
  const normalized = shown.replace(/\/+$/, "");
  // Every operation path starts with /api/, so this would call /api/api/... and answer 404.
  if (/\/api$/i.test(normalized)) {
    throw new CodeSecInputError(
      "baseUrl",
      `baseUrl ${JSON.stringify(normalized)} ends in /api: drop the trailing /api: the operation paths ` +
        `already start with /api/ (use ${JSON.stringify(normalized.replace(/\/api$/i, ""))})`,
    );
  }
  return normalized;
}
