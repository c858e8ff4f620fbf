/**
 * A server (or proxy) that echoes a secret back, encoded: base64 and base64url (alone or inside a longer
 * encoded text, at each byte alignment), hex in either case, percent-encoded, form-encoded, escaped in a
 * JSON string. Echoed in an error body, in its message and code fields, in headers (x-request-id,
 * Location, Content-Type, Content-Encoding) and in 2xx bodies, by each of the ten operations, for an API
 * token, a JWT, a token with characters every encoding changes, and the one-time code of
 * `completeScmAppRequest`: no form of any secret survives in the error's message, toJSON(), String() or
 * util.inspect().
 */
import { expect } from "chai";
import * as util from "util";
import { CodeSecError, CodeSecResponseError, type CodeSecClient, type OperationKey } from "../../client";
import { redact } from "../../client/redaction";
import { FakeServer, TOKEN, type FakeResponse } from "../support/fakeServer";
import { OPERATION_CALLS, OPERATION_KEYS } from "../support/operationCalls";

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEiLCJleHAiOjE4OTM0NTYwMDB9.Zm9vYmFyLXNpZ25hdHVyZS1vZi10aGUtdGVzdC1qd3Q";
/** Printable ASCII that percent-encoding and JSON escaping both change. */
const ODD_TOKEN = 'Tok+/="Quote"\\Back%41~Secret9';
/** A one-time code with characters every encoding changes, a non-ASCII one included. */
const ODD_CODE = 'otc/1001+b="Kx4%Vm1Rc"-\u00e99';

const TOKENS = { "an API token": TOKEN, "a JWT": JWT, "a token with odd characters": ODD_TOKEN };

/**
 * Encoded forms, and pieces of a secret, shorter than this may stay (they would match unrelated text): the
 * documented minimum.
 */
const MIN_PIECE_LENGTH = 8;

/** The encodings a server may echo a secret in, written independently of client/redaction.ts. */
const ENCODINGS: Record<string, (secret: string) => string> = {
  "as it is": (s) => s,
  "JSON-escaped": (s) => JSON.stringify(s).slice(1, -1),
  "percent-encoded": (s) => encodeURIComponent(s),
  "percent-encoded, lower-case hex": (s) =>
    encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  "form-encoded": (s) => new URLSearchParams({ t: s }).toString().slice(2),
  hex: (s) => Buffer.from(s).toString("hex"),
  HEX: (s) => Buffer.from(s).toString("hex").toUpperCase(),
  base64: (s) => Buffer.from(s).toString("base64"),
  base64url: (s) => Buffer.from(s).toString("base64url"),
  "base64 of a Basic credential (user:secret)": (s) => Buffer.from(`user:${s}`).toString("base64"),
  "base64url after one byte": (s) => Buffer.from(`x${s}`).toString("base64url"),
  "base64 of a line (secret + newline)": (s) => Buffer.from(`${s}\n`).toString("base64"),
  "percent-encoded base64": (s) => encodeURIComponent(Buffer.from(`ab${s}`).toString("base64")),
};

/**
 * What must not appear: each encoding's text, and for base64 the part that depends on the secret alone
 * at each alignment (cut generously: 4 characters off each end).
 */
function leakForms(secret: string): string[] {
  const forms = Object.values(ENCODINGS).map((encode) => encode(secret));
  for (const before of ["", "A", "AB"]) {
    const text = Buffer.from(before + secret)
      .toString("base64")
      .replace(/=+$/, "");
    const core = text.slice(4, -4);
    forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms.filter((form) => form === secret || form.length >= MIN_PIECE_LENGTH);
}

function assertNoForm(error: unknown, secrets: string[], what: string): void {
  expect(error, what).to.be.instanceOf(CodeSecError);
  const views = {
    message: (error as Error).message,
    json: JSON.stringify(error),
    string: String(error),
    inspect: util.inspect(error, { showHidden: true, depth: Infinity, getters: true }),
  };
  // Each form, and its first 12 characters (a form cut before it was redacted), in any case (a form
  // lower-cased before it was redacted).
  const pieces = secrets
    .flatMap(leakForms)
    .flatMap((form) => [form, form.slice(0, 12)])
    .map((piece) => piece.toLowerCase());
  for (const [view, text] of Object.entries(views)) {
    const lower = text.toLowerCase();
    for (const piece of pieces) {
      expect(lower.includes(piece), `${what}: ${view} shows ${JSON.stringify(piece)}\n${text}`).to.equal(
        false,
      );
    }
  }
}

/** Header values must be latin-1 without control characters; other echoes go in bodies only. */
function headerSafe(text: string): boolean {
  return /^[\x20-\x7e\x80-\xff]*$/.test(text);
}

/** The answers that echo `echo` (the encoded secret), each ending the call with an error. */
function echoingAnswers(echo: string, operation: OperationKey): [string, FakeResponse][] {
  const headers = (extra: Record<string, string>) => (headerSafe(echo) ? extra : {});
  return [
    [
      "400 with the echo in the error's code and message, and in x-request-id",
      {
        status: 400,
        json: { error: { code: echo, message: `credential ${echo} rejected`, requestId: echo } },
        headers: headers({ "x-request-id": echo }),
      },
    ],
    [
      "a redirect with the echo in a plain-text body and in Location",
      {
        status: 307,
        text: `moved; you sent ${echo}`,
        headers: headers({ location: `https://sso.example.com/login?t=${echo}` }),
      },
    ],
    [
      // completeScmAppRequest (retry class once): an unknown outcome, quoting what the platform said.
      "500 with the echo in the body's message",
      { status: 500, json: { message: echo } },
    ],
    [
      "200 that is not JSON, with the echo in the body, Content-Type and x-request-id",
      {
        status: 200,
        text: `<p>${echo}</p>`,
        headers: headers({ "content-type": `text/html; note=${echo}`, "x-request-id": echo }),
      },
    ],
    [
      "200 whose body is the echo as a JSON string",
      { status: 200, json: echo, headers: headers({ "x-request-id": `req ${echo}` }) },
    ],
    ...(headerSafe(echo)
      ? ([
          [
            "200 with the echo as its Content-Encoding",
            { status: 200, text: "{}", headers: { "content-encoding": echo } },
          ],
        ] as [string, FakeResponse][])
      : []),
    ...(operation === "provisionWorkflows"
      ? ([
          [
            "200 with the echo as a key of a record whose value is wrong",
            { status: 200, json: { repoFileUrls: { [echo]: 5 }, errors: [] } },
          ],
        ] as [string, FakeResponse][])
      : []),
  ];
}

describe("CodeSecClient: no encoded echo of a secret reaches an error", function () {
  this.timeout(120_000);
  let server: FakeServer;
  before(async () => {
    server = await FakeServer.start();
  });
  after(async () => server.close());

  const client = (token: string): CodeSecClient => server.client({ token, retries: 0 });

  for (const operation of OPERATION_KEYS) {
    it(operation, async () => {
      const call = OPERATION_CALLS[operation];
      const echoed: [string, string][] = Object.entries(TOKENS);
      if (operation === "completeScmAppRequest") echoed.push(["the one-time code", ODD_CODE]);
      let errors = 0;
      for (const [kind, secret] of echoed) {
        // The one-time code is echoed to a client holding the plain API token: both must stay hidden.
        const token = kind === "the one-time code" ? TOKEN : secret;
        for (const [encoding, encode] of Object.entries(ENCODINGS)) {
          for (const [place, answer] of echoingAnswers(encode(secret), operation)) {
            server.always(answer);
            let caught: unknown;
            try {
              await call(client(token), ODD_CODE);
            } catch (error) {
              caught = error;
            }
            assertNoForm(caught, [token, ODD_CODE], `${kind}, ${encoding}, ${place}`);
            errors++;
          }
        }
      }
      expect(errors).to.be.at.least(Object.keys(TOKENS).length * Object.keys(ENCODINGS).length * 5);
    });
  }

  it("the path of a field named by the echo is redacted in fieldPath too", async () => {
    server.always({
      status: 200,
      json: { repoFileUrls: { [Buffer.from(TOKEN).toString("hex")]: 5 }, errors: [] },
    });
    let caught: unknown;
    try {
      await OPERATION_CALLS.provisionWorkflows(client(TOKEN));
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(CodeSecResponseError);
    expect((caught as CodeSecResponseError).fieldPath).to.equal("repoFileUrls.[REDACTED]");
  });
});

describe("redaction of encoded forms", () => {
  it("leaves the text around an encoded secret, and the secret's neighbours in base64, readable", () => {
    const basic = Buffer.from(`user:${TOKEN}`).toString("base64");
    const out = redact(`Authorization: Basic ${basic} rejected`, [TOKEN]);
    expect(out).to.match(/^Authorization: Basic dXNlcjp\w*\[REDACTED\]\w* rejected$/);
  });

  it("does not look for encoded forms shorter than the minimum: a short secret leaves random text alone", () => {
    const code = "c0de";
    // base64("c0de") is "YzBkZQ==": its secret-only part "YzBkZ" is too short to look for.
    expect(redact("request YzBkZQ and 63306465 and c0de", [code])).to.equal(
      "request YzBkZQ and [REDACTED] and [REDACTED]",
    );
  });

  it("redacts a JWT's signature on its own", () => {
    const signature = JWT.split(".")[2];
    expect(redact(`bad signature ${signature}`, [JWT])).to.equal("bad signature [REDACTED]");
  });
});

/** A one-time code of 23 characters, the length the platform issues. */
const SCM_CODE = "otc-1001-b-Kx4Vm1Rc-7Qz";

/** Every piece of `secret` of the minimum length, lower-cased: any longer piece holds one of them. */
function minimalPieces(secret: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start + MIN_PIECE_LENGTH <= secret.length; start++) {
    pieces.push(secret.slice(start, start + MIN_PIECE_LENGTH).toLowerCase());
  }
  return pieces;
}

/** Prefixes, suffixes and middles of `secret`, from the minimum length to one short of the whole. */
function partialEchoes(secret: string): Record<string, string> {
  const echoes: Record<string, string> = {};
  const lengths = new Set([MIN_PIECE_LENGTH, MIN_PIECE_LENGTH + 1, secret.length >> 1, secret.length - 1]);
  for (const length of lengths) {
    if (length < MIN_PIECE_LENGTH || length >= secret.length) continue;
    const middle = (secret.length - length) >> 1;
    const cuts = {
      prefix: secret.slice(0, length),
      suffix: secret.slice(secret.length - length),
      middle: secret.slice(middle, middle + length),
    };
    for (const [cut, piece] of Object.entries(cuts)) {
      echoes[`${cut} of ${length}`] = piece;
      echoes[`${cut} of ${length}, upper-cased`] = piece.toUpperCase();
      echoes[`${cut} of ${length}, lower-cased`] = piece.toLowerCase();
    }
  }
  return echoes;
}

/** The failed answers that echo `echo`: in a message, a details field, an HTML page and a request id. */
function partialEchoAnswers(echo: string): Record<string, FakeResponse> {
  return {
    "a 401's message": {
      status: 401,
      json: { error: { code: "UNAUTHENTICATED", message: `token ${echo}... is not valid` } },
    },
    "a 400's details field": {
      status: 400,
      json: { details: [{ "@type": "BadRequest", reason: `credential ${echo} malformed` }] },
    },
    "an HTML 502 page": {
      status: 502,
      text:
        "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>" +
        `<p>upstream refused Authorization: ${echo}</p></body></html>`,
      headers: { "content-type": "text/html" },
    },
    "x-request-id": {
      status: 400,
      json: { error: { code: "INVALID_ARGUMENT", message: "bad request" } },
      headers: { "x-request-id": `req-${echo}` },
    },
  };
}

function assertNoPiece(error: unknown, secrets: string[], what: string): void {
  expect(error, what).to.be.instanceOf(CodeSecError);
  const views = {
    message: (error as Error).message,
    json: JSON.stringify(error),
    string: String(error),
    inspect: util.inspect(error, { showHidden: true, depth: Infinity, getters: true }),
  };
  const pieces = secrets.flatMap(minimalPieces);
  for (const [view, text] of Object.entries(views)) {
    const lower = text.toLowerCase();
    for (const piece of pieces) {
      expect(lower.includes(piece), `${what}: ${view} shows ${JSON.stringify(piece)}\n${text}`).to.equal(
        false,
      );
    }
  }
}

describe("CodeSecClient: no piece of a secret of 8 characters or more, in any case, reaches an error", function () {
  this.timeout(120_000);
  let server: FakeServer;
  before(async () => {
    server = await FakeServer.start();
  });
  after(async () => server.close());

  const cases: [string, string, OperationKey][] = [
    ["the API token", TOKEN, "getCurrentUser"],
    ["a JWT", JWT, "getScan"],
    ["the one-time SCM app code", SCM_CODE, "completeScmAppRequest"],
  ];
  for (const [kind, secret, operation] of cases) {
    it(`${kind}, echoed in part by ${operation}`, async () => {
      const token = secret === SCM_CODE ? TOKEN : secret;
      let errors = 0;
      for (const [cut, echo] of Object.entries(partialEchoes(secret))) {
        for (const [place, answer] of Object.entries(partialEchoAnswers(echo))) {
          server.always(answer);
          let caught: unknown;
          try {
            await OPERATION_CALLS[operation](server.client({ token, retries: 0 }), SCM_CODE);
          } catch (error) {
            caught = error;
          }
          assertNoPiece(caught, [token, SCM_CODE], `${kind}: ${cut} in ${place}`);
          errors++;
        }
      }
      expect(errors).to.be.at.least(4 * 3 * 3 * 3);
    });
  }
});

describe("redaction of pieces of a secret", () => {
  it("redacts the pieces at the start of a body of megabytes, and counts the characters after the cut", async () => {
    const server = await FakeServer.start();
    try {
      const filler = "x".repeat(4 * 1024 * 1024);
      server.always({ status: 502, text: `upstream said ${TOKEN.slice(2, 14).toUpperCase()} ${filler}` });
      let caught: unknown;
      try {
        await server.client({ retries: 0 }).getCurrentUser();
      } catch (error) {
        caught = error;
      }
      assertNoPiece(caught, [TOKEN], "a body of 4 MiB");
      expect((caught as Error).message).to.match(
        new RegExp(
          `upstream said \\[REDACTED\\] x+… \\(${filler.length - (300 - "upstream said [REDACTED] ".length)} more characters\\)`,
        ),
      );
    } finally {
      await server.close();
    }
  });

  it("redacts a piece of 8 characters or more in any case, and leaves shorter ones and the text around", () => {
    expect(redact(`a ${TOKEN.slice(0, 8)} b`, [TOKEN])).to.equal("a [REDACTED] b");
    expect(redact(`a ${TOKEN.slice(3, 20).toUpperCase()} b`, [TOKEN])).to.equal("a [REDACTED] b");
    expect(redact(`a ${TOKEN.slice(-9).toLowerCase()} b`, [TOKEN])).to.equal("a [REDACTED] b");
    expect(redact(`a ${TOKEN.slice(0, 7)} b`, [TOKEN])).to.equal(`a ${TOKEN.slice(0, 7)} b`);
  });

  it("redacts a secret shorter than 8 characters whole, in any case", () => {
    expect(redact("code AbC12 or abc12 or ABC1", ["abc12"])).to.equal(
      "code [REDACTED] or [REDACTED] or ABC1",
    );
  });

  it("redacts two pieces of one secret side by side as one", () => {
    expect(redact(`x${TOKEN.slice(0, 10)}${TOKEN.slice(12)}y`, [TOKEN])).to.equal("x[REDACTED]y");
  });
});
