/**
 * Sanitizing of anything the client echoes into an error: server bodies, headers, system messages,
 * argument values. A misbehaving server (or proxy) may echo the Authorization header back, as it is or
 * encoded (base64 in a Basic header or a log line, hex, percent-encoded in a URL, escaped in JSON); the
 * token must still never reach a message, a log or Pulumi state.
 */

export const REDACTED = "[REDACTED]";

/**
 * The shortest encoded form of a secret looked for: a shorter one (the base64 of a 4-character code,
 * say) would match unrelated text. The secret itself is redacted whatever its length.
 */
export const MIN_ENCODED_FORM_LENGTH = 8;

// Any bearer credential, not only ours: an echoed JWT of another session is just as secret.
const BEARER = /\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi;
// Control characters would let a server forge terminal output or log lines.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
// Three base64url segments: the last one (the signature) is what makes a JWT a credential.
const JWT = /^[\w-]+\.[\w-]+\.([\w-]{16,})$/;

/** Forms of recent secrets (the token is looked up on every failure; a few one-time codes besides). */
const formsCache = new Map<string, readonly string[]>();
/** Entries each cache keeps; emptied when full (secrets of a process are few: its tokens and codes). */
const CACHE_SIZE = 32;

/**
 * Every form in which `secret` may come back, longest first: the secret itself; escaped in a JSON string
 * (`"` and `\` escaped, `/` too as some serializers do, non-ASCII as `\uXXXX`); percent-encoded
 * (`encodeURIComponent`, with upper- or lower-case hex, and as a form field); hex (either case); standard
 * and URL-safe base64, at each of the three byte alignments at which it may sit inside a longer encoded
 * text (`Basic base64(user:token)`), each as the part of the encoding that depends on the secret alone;
 * and a JWT's signature on its own. Encoded forms shorter than {@link MIN_ENCODED_FORM_LENGTH} are left out.
 */
export function secretForms(secret: string): readonly string[] {
  if (secret === "") return [];
  const cached = formsCache.get(secret);
  if (cached !== undefined) return cached;
  const bytes = Buffer.from(secret, "utf8");
  const json = JSON.stringify(secret).slice(1, -1);
  const percent = percentEncoded(secret);
  const encoded = [
    json,
    json.replace(/\//g, "\\/"),
    json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`),
    ...(percent === undefined ? [] : [percent, lowerHexEscapes(percent)]),
    new URLSearchParams({ s: secret }).toString().slice(2),
    bytes.toString("hex"),
    bytes.toString("hex").toUpperCase(),
    ...base64Cores(bytes),
    JWT.exec(secret)?.[1] ?? "",
  ];
  const forms = new Set([secret]);
  for (const form of encoded) if (form.length >= MIN_ENCODED_FORM_LENGTH) forms.add(form);
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  if (formsCache.size >= CACHE_SIZE) formsCache.clear();
  formsCache.set(secret, sorted);
  return sorted;
}

/**
 * The part of the base64 encodings (standard, URL-safe, and standard percent-encoded) of `bytes` that
 * depends on `bytes` alone, when 0, 1 or 2 other bytes come before them: base64 turns 3 bytes into 4
 * characters, so the characters that straddle a neighbouring byte differ with what surrounds the secret.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (const before of [0, 1, 2]) {
    const text = Buffer.concat([Buffer.alloc(before), bytes]).toString("base64");
    const core = text.slice(Math.ceil((before * 8) / 6), Math.floor(((before + bytes.length) * 8) / 6));
    cores.push(
      core,
      core.replace(/\+/g, "-").replace(/\//g, "_"),
      core.replace(/\+/g, "%2B").replace(/\//g, "%2F"),
    );
  }
  return cores;
}

function percentEncoded(secret: string): string | undefined {
  try {
    return encodeURIComponent(secret);
  } catch {
    // A lone surrogate cannot be percent-encoded, by the server either.
    return undefined;
  }
}

function lowerHexEscapes(percent: string): string {
  return percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/** Patterns of recent sets of secrets (a client's token, alone or with a one-time code). */
const patternCache = new Map<string, RegExp | undefined>();

/** One pattern for every form of every secret, longest first, so that a longer form is replaced whole. */
function formsPattern(secrets: readonly string[]): RegExp | undefined {
  const key = secrets.join("\u0000");
  if (patternCache.has(key)) return patternCache.get(key);
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const pattern =
    forms.length === 0
      ? undefined
      : new RegExp(forms.map((form) => form.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")).join("|"), "g");
  if (patternCache.size >= CACHE_SIZE) patternCache.clear();
  patternCache.set(key, pattern);
  return pattern;
}

/** Whether `text` holds any form of any of the secrets ({@link secretForms}). */
export function mentionsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => secretForms(secret).some((form) => text.includes(form)));
}

/** Replaces every form of each secret (and any `Bearer <credential>`) with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  const pattern = formsPattern(secrets);
  const out = pattern === undefined ? text : text.replace(pattern, REDACTED);
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
