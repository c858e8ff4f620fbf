/**
 * The one way the reports write text they did not author (resource names, user ids, field values,
 * messages: anything from a program, a state or the platform) into Markdown: as inert text. Such text
 * must not start a table cell, a link, an image, emphasis, HTML (a comment can hide the rest of a
 * comment), a code fence, a mention or an autolink, and characters that do not show (controls, bidi
 * overrides, zero-width characters, line breaks) are written out visibly (`\u202e`, `\n`).
 */
import { escapeOf } from "../../api/messageText";

// Characters that do not show as themselves: controls, format characters (bidi marks, embeddings,
// overrides and isolates, zero-width characters, the soft hyphen, tags), line and paragraph separators,
// every default-ignorable code point (variation selectors, Hangul fillers, the combining grapheme
// joiner), and the Braille blank. Wider than api/messageText.ts's set, which leaves zero-width characters
// for the SDK's redaction to drop (a secret split by them is then found whole).
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** Longest piece of untrusted text shown whole; a longer one is cut with a note of what was left out. */
export const MAX_TEXT_CHARACTERS = 300;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function codeOf(char: string): string {
  return NAMED[char] ?? escapeOf(char);
}

/**
 * Untrusted text with its invisible characters written out (`\u001b`, `\u202e`, `\n`) and cut to
 * `max` characters: one line that reads as what it holds. For plain-text places (a code block).
 */
export function visibleText(value: unknown, max: number = MAX_TEXT_CHARACTERS): string {
  const text = String(value);
  const chars = text.length > max ? Array.from(text) : undefined;
  const kept = chars !== undefined && chars.length > max ? chars.slice(0, max).join("") : text;
  const cut = chars !== undefined && chars.length > max ? `… (${chars.length - max} more characters)` : "";
  return kept.replace(INVISIBLE_CHARACTERS, codeOf) + cut;
}

// What GitHub turns into a link or a notification, broken by a zero-width space (which shows nothing
// and matches no link or mention pattern): `@user`, `@org/team`, `a@b.c`, `http://`, `#12`; and every
// `www.`, since GitHub links one after `_` or a letter too.
const ZERO_WIDTH_SPACE = "\u200b";
const LINK_MARKS = /@|#(?=\d)|:(?=\/\/)/gu;
const WWW = /(www)\./giu;

// ASCII punctuation that Markdown reads inline (code, emphasis, links, images, strikethrough, table
// cells, math, escapes), escaped with a backslash; `_` between letters or digits (`ORG_ROLE_ADMIN`)
// can neither open nor close emphasis, and stays as it is.
const MARKDOWN_PUNCTUATION = /[\\`*[\]!|~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

// What makes a line a heading, a list item or a setext underline when it starts one. Spaces around the
// text (which would start an indented code block, or be trimmed from a table cell) are kept as entities.
const BLOCK_START = /^(?:([#+=-])|(\d+)([.)]))/u;

/**
 * Untrusted text as Markdown that renders as that text (visibly, cut to `max` characters), in prose,
 * a list item or a table cell alike.
 */
export function markdownText(value: unknown, max: number = MAX_TEXT_CHARACTERS): string {
  return visibleText(value, max)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(MARKDOWN_PUNCTUATION, (char) => `\\${char}`)
    .replace(LINK_MARKS, (char) => `${char}${ZERO_WIDTH_SPACE}`)
    .replace(WWW, `$1${ZERO_WIDTH_SPACE}.`)
    .replace(
      BLOCK_START,
      (_, mark: string | undefined, digits: string | undefined, after: string | undefined) =>
        mark !== undefined ? `\\${mark}` : `${digits}\\${after}`,
    )
    .replace(/^ +| +$/g, (spaces) => "&#32;".repeat(spaces.length));
}

/**
 * Untrusted text as inline code (a policy's name, a stack's name; not for table cells): between
 * backticks when it holds no backtick and no space at either end, which is all real names; else as
 * `<code>` around escaped text, since a code span cannot hold every backtick safely.
 */
export function markdownCode(value: unknown, max: number = MAX_TEXT_CHARACTERS): string {
  const shown = visibleText(value, max);
  return /^[^`\s](?:[^`]*[^`\s])?$/u.test(shown)
    ? `\`${shown}\``
    : `<code>${markdownText(value, max)}</code>`;
}

/** Longest line of a code block shown whole: a longer one (a huge value) is cut, not left out with all after it. */
export const MAX_LINE_CHARACTERS = 1000;

/**
 * Plain-text lines as a fenced code block: each line made visible (so no line of the content starts or
 * ends the block) and cut to {@link MAX_LINE_CHARACTERS}, inside a fence longer than any run of backticks
 * they hold.
 */
export function fencedBlock(info: string, lines: readonly string[]): string[] {
  const shown = lines.map((line) => visibleText(line, MAX_LINE_CHARACTERS));
  let longest = 0;
  for (const line of shown)
    for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, ...shown, fence];
}
