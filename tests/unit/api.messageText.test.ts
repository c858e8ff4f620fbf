/**
 * Text from outside reaches a message inert: every control character, line separator and bidirectional
 * control is shown as its `\uXXXX` escape, whether it comes quoted (a value), bare (a field name in a
 * path) or inside a whole message.
 */
import { expect } from "chai";
import { escapedText, quotedText, shownMessage } from "../../api/messageText";
import { describeFound, pathOfKeys } from "../../api/schemaIssues";

/** One of each kind of character that must never reach a terminal raw. */
const UNSHOWABLE: Record<string, string> = {
  NUL: "\u0000",
  ESC: "\u001b",
  "carriage return": "\r",
  tab: "\t",
  DEL: "\u007f",
  CSI: "\u009b",
  "next line": "\u0085",
  "line separator": "\u2028",
  "paragraph separator": "\u2029",
  "Arabic letter mark": "\u061c",
  "left-to-right mark": "\u200e",
  "right-to-left mark": "\u200f",
  "right-to-left override": "\u202e",
  "left-to-right embedding": "\u202a",
  "first strong isolate": "\u2068",
  "pop directional isolate": "\u2069",
};

const RAW =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const escapeOf = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

describe("message text: what comes from outside is shown, never acted on", () => {
  for (const [name, char] of Object.entries(UNSHOWABLE)) {
    it(`${name} is shown as its escape, bare, quoted, in a found value, in a path and in a message`, () => {
      const text = `a${char}b`;
      const escaped = `a${escapeOf(char)}b`;
      expect(escapedText(text)).to.equal(escaped);
      expect(quotedText(text)).to.not.match(RAW);
      expect(JSON.parse(quotedText(text))).to.equal(text);
      expect(describeFound(text)).to.not.match(RAW);
      expect(pathOfKeys(["roles", text])).to.equal(`roles.${escaped}`);
      expect(shownMessage(`user ${text} is not a member`)).to.equal(`user ${escaped} is not a member`);
    });
  }

  it("an escape sequence in an id is shown as text a reader can see", () => {
    const id = "4242/\u001b[31mRED\u001b[0m";
    expect(escapedText(id)).to.equal("4242/\\u001b[31mRED\\u001b[0m");
    expect(quotedText(id)).to.equal('"4242/\\u001b[31mRED\\u001b[0m"');
  });

  it("a line feed is escaped in a value, and kept in a message, whose lists are lines", () => {
    expect(escapedText("a\nb")).to.equal("a\\u000ab");
    expect(quotedText("a\nb")).to.equal('"a\\nb"');
    expect(shownMessage("failed:\n  - user 502: gone")).to.equal("failed:\n  - user 502: gone");
  });

  it("ordinary text is unchanged: letters of any script, quotes, emoji", () => {
    const text = 'Zoë 用户 "x" \\ 🙂 é';
    expect(escapedText(text)).to.equal(text);
    expect(shownMessage(text)).to.equal(text);
    expect(quotedText(text)).to.equal(JSON.stringify(text));
  });
});
