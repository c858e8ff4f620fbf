/**
 * The one rule for a platform base URL, shared by the client's constructor and the provider's preview
 * check, so that a base URL a preview accepts is the one an apply uses.
 */
import { CodeSecInputError } from "./errors";
import { describeFound } from "../api/schemaIssues";
import { settingWords, type SettingNames } from "./settingNames";

const EXAMPLE = "an http(s) URL such as https://codesec.example.com";

/**
 * Checks the form of a base URL and returns it normalized: trimmed, origin plus path, no trailing slash:
 * the identity of a platform, as resources record it (provider/ownership.ts). A client needs more
 * ({@link normalizeBaseUrl}). Throws CodeSecInputError (field `baseUrl`) for anything else; the message
 * never echoes credentials or a query, which may carry one.
 */
export function canonicalBaseUrl(value: unknown): string {
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

/**
 * Whether `hostname` (as `URL.hostname` gives it: lower-cased, an IPv4 address in dotted decimal, an IPv6
 * one in brackets and compressed) is this machine: `localhost`, 127.0.0.0/8 or `[::1]`. A request to it
 * never crosses a network.
 */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Whether a client may send its token to a base URL in plain text, and how messages name that setting. */
export interface TransportRule {
  /** `true`: plain http is accepted to any host. Default: to this machine only ({@link isLoopbackHost}). */
  readonly allowInsecureHttp?: boolean | undefined;
  /** Where the caller's users set `allowInsecureHttp` (settingNames.ts). */
  readonly settingNames?: SettingNames | undefined;
}

/**
 * The base URL a client sends its token to, normalized ({@link canonicalBaseUrl}), and https unless the
 * host is this machine (the emulator) or `allowInsecureHttp` is set: over plain http the token crosses
 * the network readable by anyone on the way. The client's constructor applies it; a check made before
 * any client exists (a preview) calls it with the same `rule`. Throws CodeSecInputError (field `baseUrl`)
 * that names the opt-in and quotes the URL's origin only.
 */
export function normalizeBaseUrl(value: unknown, rule: TransportRule = {}): string {
  const normalized = canonicalBaseUrl(value);
  const url = new URL(normalized);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && rule.allowInsecureHttp !== true) {
    // Only scheme, host and port are quoted: a path may carry a credential too.
    const origin = url.origin;
    throw new CodeSecInputError(
      "baseUrl",
      `baseUrl ${JSON.stringify(origin)} is plain http to another machine: the token would cross the ` +
        `network unencrypted. Use https (${JSON.stringify(origin.replace(/^http:/, "https:"))}); plain ` +
        "http is accepted only to this machine (localhost, 127.0.0.0/8, [::1]), or, for a platform reached " +
        "over a network you trust (an emulator in another container), with allowInsecureHttp set to true " +
        `(${settingWords(rule.settingNames).allowInsecureHttp})`,
    );
  }
  return normalized;
}
