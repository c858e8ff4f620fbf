/**
 * A secret echoed with separators between its characters (a body in UTF-16, a token cut by zero-width
 * spaces, hex in groups, base64 wrapped in lines, markup between its pieces) is redacted whole; the end of
 * the scanned window does not leave a piece of one visible; and invisible or reordering characters of
 * server text never reach a message raw.
 */
import { expect } from "chai";
import { redact, sanitize } from "../../client/redaction";
import { parseErrorBody } from "../../client/errorBody";
import { TOKEN } from "../support/fakeServer";

/** Every run of 8 letters and digits of `secret`, lower-cased, with any separators left out. */
function normalizedPieces(secret: string): string[] {
  const normalized = secret.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  const pieces: string[] = [];
  for (let start = 0; start + 8 <= normalized.length; start++)
    pieces.push(normalized.slice(start, start + 8));
  return pieces;
}

function expectNoPiece(shown: string, forms: string[], what: string): void {
  const normalized = shown.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  for (const piece of forms.flatMap(normalizedPieces)) {
    expect(normalized.includes(piece), `${what}: shows ${piece} in ${JSON.stringify(shown)}`).to.equal(false);
  }
}

function spread(text: string, every: number, separator: string): string {
  return text.match(new RegExp(`[\\s\\S]{1,${every}}`, "g"))!.join(separator);
}

const hex = Buffer.from(TOKEN).toString("hex");
const base64 = Buffer.from(`user:${TOKEN}`).toString("base64");

const ECHOES: Record<string, [string, string]> = {
  "the header echoed in UTF-16LE": [
    Buffer.from(`upstream rejected Authorization: Bearer ${TOKEN}`, "utf16le").toString("latin1"),
    TOKEN,
  ],
  "7-character pieces joined by zero-width spaces": [`token ${spread(TOKEN, 7, "\u200b")} refused`, TOKEN],
  "7-character pieces joined by NULs": [`token ${spread(TOKEN, 7, "\u0000")} refused`, TOKEN],
  "hex in groups of 4": [`dump: ${spread(hex, 4, " ")} end`, hex],
  "HEX in groups of 2 on lines": [`dump:\n${spread(hex.toUpperCase(), 2, "\n")}\nend`, hex],
  "base64 wrapped every 7 characters": [`basic ${spread(base64, 7, "\r\n")} rejected`, base64.slice(8, -4)],
  "pieces of 7 between dashes": [`id ${spread(TOKEN, 7, "-")} refused`, TOKEN],
};

describe("redaction of a secret spread by separators", () => {
  for (const [what, [echo, form]] of Object.entries(ECHOES)) {
    it(`redacts ${what}, in a message and after sanitizing`, () => {
      expectNoPiece(redact(echo, [TOKEN]), [form], `${what}: redact`);
      expectNoPiece(sanitize(echo, [TOKEN]), [form], `${what}: sanitize`);
    });
  }

  it("redacts the token between tags of an HTML page every 7 characters", () => {
    const html = `<html><body><p>sent ${spread(TOKEN, 7, "<b></b>")}</p></body></html>`;
    const shown = sanitize(parseErrorBody(html).message!, [TOKEN]);
    expectNoPiece(shown, [TOKEN], "HTML");
    expect(shown).to.equal("sent [REDACTED]");
  });

  it("redacts the whole spread span and keeps the text around it", () => {
    expect(redact(`a ${spread(TOKEN, 7, "\u200b")} b`, [TOKEN])).to.equal("a [REDACTED] b");
    expect(redact(`hex ${spread(hex, 4, " ")} end`, [TOKEN])).to.equal("hex [REDACTED] end");
  });

  it("leaves ordinary words and numbers alone, even where they hold a short run of the secret", () => {
    // "tok", "live" and digits of the token's tail appear, with separators, in fewer than 12 letters and digits.
    const prose = "the tok live status is 9f8e 7d6c, see 2026-11-28 02:37:40 and S3 cret";
    expect(redact(prose, [TOKEN])).to.equal(prose);
    expect(sanitize(prose, [TOKEN])).to.equal(prose);
  });
});

describe("sanitize: the end of the scanned window", () => {
  it("redacts a secret that the window's end would cut", () => {
    for (const before of [65_536 - 7, 65_536 - 1, 65_536 - 20, 65_536 * 2 - 5]) {
      const shown = sanitize(" ".repeat(before) + TOKEN, [TOKEN]);
      expectNoPiece(shown, [TOKEN], `${before} spaces`);
      expect(shown, `${before} spaces`).to.not.include(TOKEN.slice(0, 5));
    }
  });

  it("redacts a secret spread by separators that the window's end would cut", () => {
    const shown = sanitize(" ".repeat(65_536 - 9) + spread(TOKEN, 1, "\u0000"), [TOKEN]);
    expect(shown).to.not.match(/t\s?o\s?k/);
  });
});

describe("sanitize: characters that reorder or hide text", () => {
  it("escapes bidirectional controls as \\uXXXX, as messages do", () => {
    const shown = sanitize("user \u202eevil\u202c name \u2066x\u2069 \u200e\u200f\u061c", []);
    expect(shown).to.equal("user \\u202eevil\\u202c name \\u2066x\\u2069 \\u200e\\u200f\\u061c");
  });

  it("drops zero-width characters", () => {
    expect(sanitize("ad\u200bmin\u200c \u200dok\ufeff\u2060", [])).to.equal("admin ok");
  });
});
