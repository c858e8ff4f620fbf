/**
 * Lint check of references a reader cannot follow: a tracker's issue number, a review's comparison or
 * session number, or the spec's numbering of operations and sections. A reader has no tracker, and a user
 * does not know the spec's numbering: code, comments, docs and messages name an operation by what it does
 * (`PATCH .../roles`, "set a user's role"), and history lives in git and CHANGELOG.md.
 *
 * The word may be abbreviated (`op.`, `ops`), followed by `no.`, `number` or `#`, joined to the number by
 * spaces, a hyphen, a slash, a parenthesis or a line break inside a comment; a section sign or GitHub's
 * `GH-` before a number counts too. A number followed by a unit ("the operation 3 times", "an operation
 * 1 second later") is a quantity, not a reference. A line whose text opens with `Spec: ` (after list or quote
 * markers) may quote the spec word for word, inside double quotes, which may wrap onto the paragraph's next
 * lines.
 *
 *   node -r ts-node/register/transpile-only scripts/numbered-references-check.ts
 * prints each file:line and exits 1 if there is any.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** Files where history is the point. */
const EXEMPT_FILES = new Set(["CHANGELOG.md"]);

const SPACE = String.raw`[ \t\u00a0]`;
/** Between the word and the number: spaces, a hyphen, a slash, or a line break with a comment's marker. */
const GAP = String.raw`(?:${SPACE}*[-/]${SPACE}*|${SPACE}+|${SPACE}*\r?\n${SPACE}*(?:(?:\*|//|#|>|--)${SPACE}*)?)`;
const WORD = String.raw`(?:(?:issue|comparison|operation|session)s?|ops?\.?)`;
const NUMBER_WORD = String.raw`(?:(?:no\.|nr\.|number|#)${SPACE}*)?`;
const UNIT = String.raw`(?:%|(?:times?|x|ms|s|secs?|seconds?|minutes?|mins?|hours?|h|days?|requests?|attempts?|retries|bytes?|[kKM]i?B|apart|later|earlier|faster|slower)\b)`;
const QUANTITY_FOLLOWS = String.raw`(?!\d)(?!${SPACE}*${UNIT})`;

const NUMBERED_REFERENCE = new RegExp(
  String.raw`\b${WORD}${GAP}${NUMBER_WORD}\(?${SPACE}*#?\d+${QUANTITY_FOLLOWS}|§${SPACE}*\d|\bGH-\d`,
  "gi",
);

const SPEC_LINE = /^\s*(?:(?:[-*+>]|\d+\.)\s+)*Spec: /;

/**
 * The text with the quotations of the spec blanked out on `Spec: "..."` paragraphs (a `Spec: ` line and
 * the non-blank lines after it, where a quotation may wrap), so that only our own words are checked.
 */
function withoutSpecQuotes(lines: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!SPEC_LINE.test(lines[i])) {
      out.push(lines[i]);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && lines[end].trim() !== "") end++;
    const paragraph = lines.slice(i, end).join("\n");
    out.push(paragraph.replace(/"[^"]*"/g, (quote) => quote.replace(/[^\n"]/g, "")));
    i = end - 1;
  }
  return out.join("\n");
}

/** `file:line: text` for each line of `text` on which a numbered reference starts. */
export function numberedReferences(file: string, text: string): string[] {
  if (EXEMPT_FILES.has(file)) return [];
  const lines = text.split("\n");
  const checked = withoutSpecQuotes(lines);
  const lineNumbers = new Set<number>();
  for (const match of checked.matchAll(NUMBERED_REFERENCE)) {
    lineNumbers.add(checked.slice(0, match.index).split("\n").length);
  }
  return [...lineNumbers].map((n) => `${file}:${n}: ${lines[n - 1].trim()}`);
}

/** The problems of every tracked text file under `root`. */
export function repositoryNumberedReferences(root: string): string[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 })
    .split("\0")
    .filter((file) => file !== "");
  return files.flatMap((file) => {
    let content: Buffer;
    try {
      content = readFileSync(path.join(root, file));
    } catch {
      return []; // deleted in the work tree, not yet committed
    }
    if (content.includes(0)) return []; // binary
    return numberedReferences(file, content.toString("utf8"));
  });
}

if (require.main === module) {
  const problems = repositoryNumberedReferences(path.resolve(__dirname, ".."));
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(
      `${problems.length} line(s) name an issue, a comparison, a session or an operation by number: name the ` +
        'operation by what it does (its method and path, or a phrase such as "set a user\'s role"), and leave ' +
        "history to git and CHANGELOG.md.\n",
    );
    process.exitCode = 1;
  }
}
