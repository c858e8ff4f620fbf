/**
 * Sanitizing of anything the client echoes into an error: server bodies, headers, system messages,
 * argument values. A misbehaving server (or proxy) may echo the Authorization header back, as it is or
 * encoded (base64 in a Basic header or a log line, hex, percent-encoded in a URL, escaped in JSON); the
 * token must still never reach a message, a log or Pulumi state.
 */

import { escapedText } from "../api/messageText";

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
 * The shortest run of letters and digits of a secret's form looked for with the characters between them
 * ignored: a server may echo a secret spread by separators (a body in UTF-16, hex in groups, base64 in
 * lines, markup between pieces, zero-width spaces). Longer than {@link MIN_PIECE_LENGTH}, as ignoring
 * separators joins words and numbers: a token's readable prefix (`tok_live_`) meets prose ("tok live
 * status"), a run of its digits meets a date or an id, and 8 letters and digits would then need one or
 * two characters of chance to match; 12 need several of a secret's random characters in a row.
 */
export const MIN_SPREAD_LENGTH = 12;

/**
 * Runs of one length to look for: every run of that length of every form, case-folded, with their rolling
 * hashes (a text is scanned once, one hash step per character, whatever its length and however many forms
 * there are).
 */
interface PieceSet {
  readonly length: number;
  /** HASH_BASE to the power length - 1 (32-bit): the weight of the character leaving the window. */
  readonly lead: number;
  readonly hashes: ReadonlySet<number>;
  readonly pieces: ReadonlySet<string>;
}

/**
 * What to look for, for one set of secrets: pieces of {@link MIN_PIECE_LENGTH} characters of each form as
 * it is (`contiguous`), pieces of {@link MIN_SPREAD_LENGTH} of its letters and digits (`spread`, looked for
 * in the letters and digits of a text), the secrets too short for pieces, looked for whole, and the length
 * of the longest form.
 */
interface PieceMatcher {
  readonly contiguous: PieceSet;
  readonly spread: PieceSet;
  readonly short: RegExp | undefined;
  readonly longest: number;
}

/** Matchers of recent sets of secrets (a client's token, alone or with a one-time code). */
const matcherCache = new Map<string, PieceMatcher>();

function matcherFor(secrets: readonly string[]): PieceMatcher {
  const key = secrets.join("\u0000");
  const cached = matcherCache.get(key);
  if (cached !== undefined) return cached;
  const contiguous = emptyPieceSet(MIN_PIECE_LENGTH);
  const spread = emptyPieceSet(MIN_SPREAD_LENGTH);
  const short: string[] = [];
  let longest = 0;
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      longest = Math.max(longest, form.length);
      if (form.length < MIN_PIECE_LENGTH) {
        short.push(form);
        continue;
      }
      addPieces(contiguous, foldCase(form));
      addPieces(spread, lettersAndDigits(form).text);
    }
  }
  const matcher: PieceMatcher = {
    contiguous,
    spread,
    short:
      short.length === 0
        ? undefined
        : new RegExp(short.map((form) => form.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")).join("|"), "gi"),
    longest,
  };
  if (matcherCache.size >= CACHE_SIZE) matcherCache.clear();
  matcherCache.set(key, matcher);
  return matcher;
}

function emptyPieceSet(length: number): PieceSet & { hashes: Set<number>; pieces: Set<string> } {
  const lead = Array.from({ length: length - 1 }).reduce<number>((power) => Math.imul(power, HASH_BASE), 1);
  return { length, lead, hashes: new Set(), pieces: new Set() };
}

function addPieces(set: PieceSet & { hashes: Set<number>; pieces: Set<string> }, folded: string): void {
  for (let start = 0; start + set.length <= folded.length; start++) {
    const piece = folded.slice(start, start + set.length);
    set.pieces.add(piece);
    set.hashes.add(pieceHash(piece, 0, set.length));
  }
}

/** ASCII letters lower-cased, every other character kept: a string keeps its length and its indexes. */
function foldCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function foldedCode(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * The ASCII letters (lower-cased) and digits of `text`, everything else left out, and for each the index
 * in `text` it came from.
 */
function lettersAndDigits(text: string): { text: string; at: Int32Array } {
  const codes = new Uint16Array(text.length);
  const at = new Int32Array(text.length);
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = foldedCode(text, index);
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122)) {
      codes[length] = code;
      at[length++] = index;
    }
  }
  let kept = "";
  for (let start = 0; start < length; start += 8192) {
    kept += String.fromCharCode(...codes.subarray(start, Math.min(length, start + 8192)));
  }
  return { text: kept, at: at.subarray(0, length) };
}

const HASH_BASE = 0x01000193;

/** The hash of the case-folded `length` characters of `text` from `start`. */
function pieceHash(text: string, start: number, length: number): number {
  let hash = 0;
  for (let index = start; index < start + length; index++) {
    hash = (Math.imul(hash, HASH_BASE) + foldedCode(text, index)) | 0;
  }
  return hash;
}

/**
 * The spans `[start, end)` of `text` made of pieces of `set`, side by side or overlapping pieces merged
 * into one span, in order.
 */
function pieceSpans(text: string, set: PieceSet): [number, number][] {
  const spans: [number, number][] = [];
  const { length } = set;
  if (set.pieces.size === 0 || text.length < length) return spans;
  let hash = pieceHash(text, 0, length);
  for (let start = 0; ; start++) {
    if (set.hashes.has(hash) && set.pieces.has(foldCase(text.slice(start, start + length)))) {
      const end = start + length;
      const last = spans[spans.length - 1];
      if (last !== undefined && start <= last[1]) last[1] = end;
      else spans.push([start, end]);
    }
    const next = start + length;
    if (next >= text.length) return spans;
    hash =
      (Math.imul((hash - Math.imul(foldedCode(text, start), set.lead)) | 0, HASH_BASE) +
        foldedCode(text, next)) |
      0;
  }
}

/**
 * The spans `[start, end)` of `text` to redact, in order, none overlapping or touching another: pieces of
 * forms as they are, pieces of forms' letters and digits with anything between them (the span runs from
 * the piece's first letter or digit to its last), and short secrets whole.
 */
function secretSpans(text: string, matcher: PieceMatcher): [number, number][] {
  const found = pieceSpans(text, matcher.contiguous);
  const view = lettersAndDigits(text);
  for (const [start, end] of pieceSpans(view.text, matcher.spread)) {
    found.push([view.at[start], view.at[end - 1] + 1]);
  }
  if (matcher.short !== undefined) {
    for (const match of text.matchAll(matcher.short))
      found.push([match.index, match.index + match[0].length]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const spans: [number, number][] = [];
  for (const [start, end] of found) {
    const last = spans[spans.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

/**
 * `text` up to index `limit` with each span replaced by `[REDACTED]`; a span that starts before `limit`
 * is replaced whole, wherever it ends. `consumed`: the index in `text` the result ends at.
 */
function withSpansRedacted(
  text: string,
  spans: readonly [number, number][],
  limit: number,
): { text: string; consumed: number } {
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    if (start >= limit) break;
    out += `${text.slice(from, start)}${REDACTED}`;
    from = end;
  }
  const consumed = Math.min(text.length, Math.max(from, limit));
  return { text: out + text.slice(from, consumed), consumed };
}

/** Whether `text` holds a piece of any form of any of the secrets ({@link redact}). */
export function mentionsSecret(text: string, secrets: readonly string[]): boolean {
  return secretSpans(text, matcherFor(secrets)).length > 0;
}

/**
 * Replaces with `[REDACTED]` every run of {@link MIN_PIECE_LENGTH} or more characters, in any case, of any
 * form of each secret ({@link secretForms}); every run of {@link MIN_SPREAD_LENGTH} or more of a form's
 * letters and digits, in any case, whatever stands between them (spaces, punctuation, zero-width
 * characters, NULs, markup), from its first letter or digit to its last; a secret too short for pieces
 * wherever it appears whole; and any `Bearer <credential>`.
 */
export function redact(text: string, secrets: readonly string[]): string {
  return withSpansRedacted(text, secretSpans(text, matcherFor(secrets)), text.length).text.replace(
    BEARER,
    `Bearer ${REDACTED}`,
  );
}

/**
 * Characters of server text looked at, at most: a message shows a few hundred, and an error body may be
 * megabytes (up to the answer limit, http.ts), which would otherwise be scanned whole on every failure.
 */
const SANITIZED_WINDOW = 65_536;

/**
 * Characters scanned past the window, per character of the longest form of the secrets: a secret the
 * window's end cuts is found whole, even spread by a separator after each character (UTF-16, spaced hex,
 * which double it), and redacted whole.
 */
const LOOKAHEAD_PER_CHARACTER = 4;

/** Invisible format characters (zero-width spaces and joiners, byte order marks, soft hyphens). */
const FORMAT = /\p{Cf}/gu;

/**
 * Text from the server made safe to show: secrets redacted, in the window and in what the scan past it
 * finds of a secret the window's end cuts; control characters and runs of whitespace collapsed, the
 * characters messages escape (bidirectional controls, line separators: api/messageText.ts) escaped and
 * other invisible format characters dropped; secrets redacted again in what that leaves (a secret may be
 * contiguous only then); then cut to `max` characters, the cut marked with how many characters follow
 * (beyond the window, counted as they came).
 */
export function sanitize(text: string, secrets: readonly string[], max = 300): string {
  const matcher = matcherFor(secrets);
  const window = Math.max(SANITIZED_WINDOW, max * 8);
  const scanned = text.slice(0, window + matcher.longest * LOOKAHEAD_PER_CHARACTER);
  const redacted = withSpansRedacted(scanned, secretSpans(scanned, matcher), window);
  const shown = escapedText(redacted.text.replace(BEARER, `Bearer ${REDACTED}`).replace(CONTROL, " "))
    .replace(FORMAT, "")
    .replace(/\s+/g, " ");
  const clean = redact(shown, secrets).trim();
  const beyond = text.length - redacted.consumed;
  if (clean.length <= max && beyond === 0) return clean;
  const shownCut = clean.slice(0, max);
  return `${shownCut}… (${clean.length - shownCut.length + beyond} more characters)`;
}

// A URL with a scheme: what a CLI quotes of a backend (`postgres://user:password@host/db`,
// `azblob://container?sig=...`, an https URL with a SAS token).
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * `text` with the credentials of every URL in it replaced by `[REDACTED]`: the user and password
 * (`scheme://[REDACTED]@host`) and the value of each query parameter (`?sig=[REDACTED]`), which hold
 * passwords, keys and SAS tokens in backend URLs whatever variable they came from.
 */
export function withoutUrlCredentials(text: string): string {
  return text.replace(URL_IN_TEXT, (url) =>
    url
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`)
      .replace(/([?&][^=&#]*=)[^&#]+/g, `$1${REDACTED}`),
  );
}

/** Output of a command-line tool made safe to show: URL credentials ({@link withoutUrlCredentials}) and `secrets` redacted. */
export function redactCommandOutput(text: string, secrets: readonly string[]): string {
  return redact(withoutUrlCredentials(text), secrets);
}
