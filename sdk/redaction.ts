/**
 * Sanitizing of anything the client echoes into an error: server bodies, headers, system messages,
 * argument values. A misbehaving server (or proxy) may echo the Authorization header back; the
 * token must still never reach a message, a log or Pulumi state.
 */

export const REDACTED = "[REDACTED]";

// Any bearer credential, not only ours: an echoed JWT of another session is just as secret.
const BEARER = /\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi;
// Control characters would let a server forge terminal output or log lines.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** Replaces every occurrence of each secret (and any `Bearer <credential>`) with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== "") out = out.split(secret).join(REDACTED);
  }
  return out.replace(BEARER, `Bearer ${REDACTED}`);
}

/** Cuts `text` to `max` characters, marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * Text from the server made safe to show: secrets redacted first (so a cut can never leave a token
 * prefix behind), control characters and runs of whitespace collapsed, then truncated.
 */
export function sanitize(text: string, secrets: readonly string[], max = 300): string {
  const clean = redact(text, secrets).replace(CONTROL, " ").replace(/\s+/g, " ").trim();
  return truncate(clean, max);
}
