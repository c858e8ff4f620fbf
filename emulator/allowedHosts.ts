/**
 * Which `Host` headers the emulator answers: loopback names only (127.0.0.1, localhost, [::1], any port),
 * plus the host it was told to bind and any the caller allows by name. A web page the developer visits
 * can make the browser send requests to the emulator under the page's own host name (DNS rebinding);
 * those carry that name in `Host` and are refused before anything is read or changed.
 */
import { isIPv6 } from "node:net";
import { apiError, type ApiError } from "./errors";

/** The names every emulator answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ["127.0.0.1", "localhost", "::1"];

/** `name`, `name:port`, `[v6]` or `[v6]:port`; the name as the header spells it. */
const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/;

/** A host name as this module compares it: lowercase, an IPv6 address without brackets. */
export function normalizeHostName(name: string): string {
  return name
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase();
}

/** The host name a `Host` header names (normalized), or undefined when it is not of the form `host[:port]`. */
export function hostNameOf(header: string | undefined): string | undefined {
  const match = HOST_HEADER.exec(header ?? "");
  if (!match) return undefined;
  return normalizeHostName(match[1] ?? match[2] ?? "");
}

/** Whether `name` is a host name or an IP address (without port or scheme), as `allowedHosts` takes. */
export function isHostName(name: string): boolean {
  const normalized = normalizeHostName(name);
  return /^[a-z0-9._-]+$/.test(normalized) || isIPv6(normalized);
}

/**
 * The host names an emulator answers to: the loopback names, the host it binds (whatever it is: the name
 * its base URL carries), and `extra` (names the caller allows, e.g. a container's service name).
 */
export function allowedHostNames(bindHost: string, extra: readonly string[] = []): ReadonlySet<string> {
  return new Set([...LOOPBACK_HOSTS, bindHost, ...extra].map(normalizeHostName));
}

/** The 421 answer for a `Host` header outside `allowed`, or undefined when the request may proceed. */
export function hostRefusal(header: string | undefined, allowed: ReadonlySet<string>): ApiError | undefined {
  const name = hostNameOf(header);
  if (name !== undefined && allowed.has(name)) return undefined;
  const others = [...allowed].filter((host) => !LOOPBACK_HOSTS.includes(host));
  return apiError(
    "MISDIRECTED_REQUEST",
    `this emulator answers only requests addressed to 127.0.0.1, localhost and [::1]` +
      `${others.length > 0 ? ` (and ${others.join(", ")})` : ""}, on any port; ` +
      `${header === undefined ? "this request has no Host header" : `the Host header is ${JSON.stringify(header.slice(0, 200))}`}. ` +
      "Call it by one of those names, or start it with --allow-host NAME to answer to another",
  );
}
