/**
 * Text from outside the package (an id, a value, a field name, a name) as a message shows it. A message
 * reaches a terminal, a log or a CI page: a raw control character in it could colour, move the cursor,
 * rewrite or hide the line, a line separator could forge a line, and a bidirectional control could make
 * the text read in another order than it is. So every such character is shown as its `\uXXXX` escape:
 * the C0 controls (line breaks and tabs included), DEL, the C1 controls, U+2028 and U+2029, and the
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069).
 */

// eslint-disable-next-line no-control-regex -- control characters are what it escapes
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A character's `\uXXXX` escape: one per UTF-16 unit (a surrogate pair beyond U+FFFF, as JSON writes it). */
export function escapeOf(char: string): string {
  let escaped = "";
  for (let i = 0; i < char.length; i++) escaped += `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return escaped;
}

/** `text` with every character listed in the module comment written as its `\uXXXX` escape. */
export function escapedText(text: string): string {
  return text.replace(UNSHOWABLE, escapeOf);
}

/** A string as messages quote it: JSON's quotes and escapes, and the characters JSON leaves raw escaped too. */
export function quotedText(text: string): string {
  return escapedText(JSON.stringify(text));
}

/**
 * A whole message of the package, whose own line breaks stay: any other character listed in the module
 * comment, which only an echoed id or value can bring, is escaped.
 */
export function shownMessage(message: string): string {
  return message.replace(UNSHOWABLE, (char) => (char === "\n" ? char : escapeOf(char)));
}
