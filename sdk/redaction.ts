/**
 * Sanitizing of anything the client echoes into an error: server bodies, headers, system messages,
 * argument values. A misbehaving server (or proxy) may echo the Authorization header back, as it is or
 * encoded (base64 in a Basic header or a log line, hex, percent-encoded in a URL, escaped in JSON); the
 * token must still never reach a message, a log or Pulumi state.
 */

export const REDACTED = "[REDACTED]";

/**
 * The shortest piece of a secret's form looked for: any run of at least this many characters of a form
 * (a prefix, a suffix, a middle, in any case) is redacted, as a server may echo a credential cut or
 * case-changed; a shorter one would match unrelated text. A secret shorter than this is looked for whole.
 */
export const MIN_PIECE_LENGTH = 8;

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
 * and a JWT's signature on its own. Encoded forms shorter than {@link MIN_PIECE_LENGTH} are left out.
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
  for (const form of encoded) if (form.length >= MIN_PIECE_LENGTH) forms.add(form);
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

/**
 * What to look for, for one set of secrets: every run of {@link MIN_PIECE_LENGTH} characters of every form,
 * case-folded, with their rolling hashes (a text is scanned once, one hash step per character, whatever
 * its length and however many forms there are), and the secrets too short for that, looked for whole.
 */
interface PieceMatcher {
  readonly hashes: ReadonlySet<number>;
  readonly pieces: ReadonlySet<string>;
  readonly short: RegExp | undefined;
}

/** Matchers of recent sets of secrets (a client's token, alone or with a one-time code). */
const matcherCache = new Map<string, PieceMatcher>();

function matcherFor(secrets: readonly string[]): PieceMatcher {
  const key = secrets.join("\u0000");
  const cached = matcherCache.get(key);
  if (cached !== undefined) return cached;
  const hashes = new Set<number>();
  const pieces = new Set<string>();
  const short: string[] = [];
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      if (form.length < MIN_PIECE_LENGTH) {
        short.push(form);
        continue;
      }
      const folded = foldCase(form);
      for (let start = 0; start + MIN_PIECE_LENGTH <= folded.length; start++) {
        const piece = folded.slice(start, start + MIN_PIECE_LENGTH);
        pieces.add(piece);
        hashes.add(pieceHash(piece, 0));
      }
    }
  }
  const matcher: PieceMatcher = {
    hashes,
    pieces,
    short:
      short.length === 0
        ? undefined
        : new RegExp(short.map((form) => form.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")).join("|"), "gi"),
  };
  if (matcherCache.size >= CACHE_SIZE) matcherCache.clear();
  matcherCache.set(key, matcher);
  return matcher;
}

/** ASCII letters lower-cased, every other character kept: a string keeps its length and its indexes. */
function foldCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function foldedCode(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 65 && code <= 90 ? code + 32 : code;
}

const HASH_BASE = 0x01000193;
/** HASH_BASE to the power MIN_PIECE_LENGTH - 1 (32-bit): the weight of the character leaving the window. */
const HASH_LEAD = Array.from({ length: MIN_PIECE_LENGTH - 1 }).reduce<number>(
  (power) => Math.imul(power, HASH_BASE),
  1,
);

/** The hash of the case-folded {@link MIN_PIECE_LENGTH} characters of `text` from `start`. */
function pieceHash(text: string, start: number): number {
  let hash = 0;
  for (let index = start; index < start + MIN_PIECE_LENGTH; index++) {
    hash = (Math.imul(hash, HASH_BASE) + foldedCode(text, index)) | 0;
  }
  return hash;
}

/**
 * The spans `[start, end)` of `text` made of pieces of the secrets, side by side or overlapping pieces
 * merged into one span, in order.
 */
function pieceSpans(text: string, matcher: PieceMatcher): [number, number][] {
  const spans: [number, number][] = [];
  if (matcher.pieces.size === 0 || text.length < MIN_PIECE_LENGTH) return spans;
  let hash = pieceHash(text, 0);
  for (let start = 0; ; start++) {
    if (
      matcher.hashes.has(hash) &&
      matcher.pieces.has(foldCase(text.slice(start, start + MIN_PIECE_LENGTH)))
    ) {
      const end = start + MIN_PIECE_LENGTH;
      const last = spans[spans.length - 1];
      if (last !== undefined && start <= last[1]) last[1] = end;
      else spans.push([start, end]);
    }
    const next = start + MIN_PIECE_LENGTH;
    if (next >= text.length) return spans;
    hash =
      (Math.imul((hash - Math.imul(foldedCode(text, start), HASH_LEAD)) | 0, HASH_BASE) +
        foldedCode(text, next)) |
      0;
  }
}

/** Whether `text` holds a piece of any form of any of the secrets ({@link redact}). */
export function mentionsSecret(text: string, secrets: readonly string[]): boolean {
  const matcher = matcherFor(secrets);
  if (matcher.short !== undefined) {
    matcher.short.lastIndex = 0;
    if (matcher.short.test(text)) return true;
  }
  return pieceSpans(text, matcher).length > 0;
}

/**
 * Replaces with `[REDACTED]` every run of {@link MIN_PIECE_LENGTH} or more characters, in any case, of any
 * form of each secret ({@link secretForms}), a secret too short for that wherever it appears whole, and
 * any `Bearer <credential>`.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const matcher = matcherFor(secrets);
  // A short secret is looked for between the spans only, not inside the marker put in their place.
  const rest = (segment: string) =>
    matcher.short === undefined ? segment : segment.replace(matcher.short, REDACTED);
  let out = "";
  let from = 0;
  for (const [start, end] of pieceSpans(text, matcher)) {
    out += `${rest(text.slice(from, start))}${REDACTED}`;
    from = end;
  }
  out += rest(text.slice(from));
  return out.replace(BEARER, `Bearer ${REDACTED}`);
}

/**
 * Characters of server text looked at, at most: a message shows a few hundred, and an error body may be
 * megabytes (up to the answer limit, http.ts), which would otherwise be scanned whole on every failure.
 */
const SANITIZED_WINDOW = 65_536;

/**
 * Text from the server made safe to show: secrets redacted first (so a cut can never leave a piece of
 * one behind: a piece the window's end cuts is still a piece), control characters and runs of
 * whitespace collapsed, then cut to `max` characters, the cut marked with how many characters follow
 * (beyond the window, counted as they came).
 */
export function sanitize(text: string, secrets: readonly string[], max = 300): string {
  const window = text.slice(0, Math.max(SANITIZED_WINDOW, max * 8));
  const clean = redact(window, secrets).replace(CONTROL, " ").replace(/\s+/g, " ").trim();
  const beyond = text.length - window.length;
  if (clean.length <= max && beyond === 0) return clean;
  const shown = clean.slice(0, max);
  return `${shown}… (${clean.length - shown.length + beyond} more characters)`;
}
