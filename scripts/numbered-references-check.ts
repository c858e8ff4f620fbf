/**
 * Lint check of references a reader cannot follow: a tracker's issue number, a review's comparison
 * number, or the spec's numbering of operations (the word, a space and a number). A reader has no tracker,
 * and a user does not know the spec's numbering: code, comments, docs and messages name an operation
 * by what it does (`PATCH .../roles`, "set a user's role"), and history lives in git and CHANGELOG.md.
 * A line opening with `Spec: ` may quote the spec word for word, inside double quotes.
 *
 *   node -r ts-node/register/transpile-only scripts/numbered-references-check.ts    prints each file:line; exit 1 if any
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** Files where history is the point. */
const EXEMPT_FILES = new Set(["CHANGELOG.md"]);

const NUMBERED_REFERENCE = /\b(?:issue|comparison|operation)s? #?\d+/i;

/** The quotations of the spec on a `Spec: "..."` line, blanked out so that only our own words are checked. */
function withoutSpecQuotes(line: string): string {
  return line.startsWith("Spec: ") ? line.replace(/"[^"]*"/g, '""') : line;
}

/** `file:line: text` for each line of `text` that carries a numbered reference. */
export function numberedReferences(file: string, text: string): string[] {
  if (EXEMPT_FILES.has(file)) return [];
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (NUMBERED_REFERENCE.test(withoutSpecQuotes(line))) found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return found;
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
      `${problems.length} line(s) name an issue, a comparison or an operation by number: name the operation ` +
        'by what it does (its method and path, or a phrase such as "set a user\'s role"), and leave history ' +
        "to git and CHANGELOG.md.\n",
    );
    process.exitCode = 1;
  }
}
