/**
 * scripts/numbered-references-check.ts (run by `npm run lint`): no line names a tracker issue, a review
 * comparison or session, or an operation or section by its number in the spec; each one found is named by
 * file and line.
 */
import { expect } from "chai";
import * as path from "node:path";
import { numberedReferences, repositoryNumberedReferences } from "../../scripts/numbered-references-check";

const root = path.resolve(__dirname, "../..");
// Built from parts, so that this file does not hold the references it checks for.
const ref = (word: string, n: number): string => `${word} ${n}`;
const join = (word: string, gap: string, n: number): string => `${word}${gap}${n}`;
const sign = String.fromCharCode(0xa7);

describe("scripts/numbered-references-check", () => {
  it("finds nothing in this repository", () => {
    expect(repositoryNumberedReferences(root)).to.deep.equal([]);
  });

  it("names the file and line of each issue, comparison and operation number, in any case", () => {
    const text = [
      "/** Reads the user back. */",
      `// see ${ref("issue", 15)}`,
      `const name = "${ref("comparison", 10)}";`,
      `Create and update set it (${ref("operation", 1)}).`,
      `${ref("Operation", 8)}, \`GET /api/auth/users/current\`.`,
      `reads (${ref("operations", 4)}, 6-10)`,
      `fixed in ${ref("issue", 0).replace(" ", " #")}12`,
    ].join("\n");
    expect(numberedReferences("client/client.ts", text)).to.deep.equal([
      `client/client.ts:2: // see ${ref("issue", 15)}`,
      `client/client.ts:3: const name = "${ref("comparison", 10)}";`,
      `client/client.ts:4: Create and update set it (${ref("operation", 1)}).`,
      `client/client.ts:5: ${ref("Operation", 8)}, \`GET /api/auth/users/current\`.`,
      `client/client.ts:6: reads (${ref("operations", 4)}, 6-10)`,
      `client/client.ts:7: fixed in ${ref("issue", 0).replace(" ", " #")}12`,
    ]);
  });

  it("passes an operation named by what it does, and words that only look alike", () => {
    const text = [
      "Create and update set it (`PATCH /api/agent/deployments/{deploymentId}/users/{userId}/roles`).",
      "the operation 's retry class",
      "retries 2 issues at most; 3 comparisons",
      `re${ref("issue", 4)} tokens`, // a word that ends in "issue" is not one
    ].join("\n");
    expect(numberedReferences("docs/x.md", text)).to.deep.equal([]);
  });

  it("lets a `Spec: ` line quote the spec, and only inside its quotes", () => {
    const quoted = `Spec: "Accepted schemes for ${ref("operations", 3)}, 4 and 8: not shown".`;
    expect(numberedReferences("docs/api-behaviour.md", quoted)).to.deep.equal([]);
    const ours = `Spec: "Body: none". Decided: ${ref("operation", 5)} takes none.`;
    expect(numberedReferences("docs/api-behaviour.md", ours)).to.deep.equal([
      `docs/api-behaviour.md:1: ${ours}`,
    ]);
    const notAQuote = `The spec says "${ref("operation", 5)} takes no body".`;
    expect(numberedReferences("docs/api-behaviour.md", notAQuote)).to.have.length(1);
  });

  it("finds the word abbreviated, numbered, hyphenated, slashed, parenthesized or wrapped, a section sign, GH-", () => {
    const lines = [
      `see ${ref("op.", 3)}`,
      `reads (${ref("ops", 1)}-3)`,
      `decided in ${sign}4`,
      `the ${join("operation", "-", 1)} call`,
      `${ref("operation no.", 3)} answers 404`,
      `${ref("operation number", 3)} answers 404`,
      `${ref("operations", 0).replace("0", "(1, 2, 5)")} read`,
      `fixed in ${join("issue", "-", 15)}`,
      `see ${join("issues", "/", 15)}`,
      `fixed in ${join("GH", "-", 15)}`,
      `${join("operation", "\u00a0", 3)} with a no-break space`,
      `${join("operation", "  ", 3)} with two spaces`,
      `from ${ref("session", 4)}`,
      `${ref("comparison", 0).replace("0", "#10")}`,
    ];
    expect(numberedReferences("a.ts", lines.join("\n"))).to.deep.equal(
      lines.map((line, index) => `a.ts:${index + 1}: ${line.trim()}`),
    );
  });

  it("finds a number on the next line of a comment, named by the line the word is on", () => {
    const text = [
      "/**",
      ` * the ${"Operation"}`,
      ` * 10's POST only reads`,
      " */",
      `// an ${"issue"}`,
      "// 15 fix",
    ].join("\n");
    expect(numberedReferences("a.ts", text)).to.deep.equal([
      `a.ts:2: * the Operation`,
      `a.ts:5: // an issue`,
    ]);
  });

  it("passes a number followed by a unit: a quantity, not a reference", () => {
    const text = [
      `retries the ${ref("operation", 3)} times`,
      `each ${ref("issue", 2)} requests`,
      `an ${ref("operation", 1)} second later`,
      `the ${ref("comparison", 2)}x faster`,
      `two ${ref("operations", 5)} ms apart`,
      `one ${ref("operation", 50)}% of the time`,
    ].join("\n");
    expect(numberedReferences("a.ts", text)).to.deep.equal([]);
  });

  it("lets a `Spec: ` quote follow list and quote markers, and wrap onto the next line", () => {
    const listed = `- Spec: "Accepted schemes for ${ref("operations", 3)}, 4 and 8: not shown".`;
    const quoted = `> Spec: "Accepted schemes for ${ref("operations", 3)}, 4 and 8: not shown".`;
    const wrapped = `Spec: "The error body: not shown"; "Status codes for operations\n1 to 10: not shown".`;
    expect(numberedReferences("docs/a.md", [listed, "", quoted, "", wrapped].join("\n"))).to.deep.equal([]);
    const oursAfterQuote = `- Spec: "Body: none". Decided: ${ref("operation", 5)} takes none.`;
    expect(numberedReferences("docs/a.md", oursAfterQuote)).to.deep.equal([`docs/a.md:1: ${oursAfterQuote}`]);
  });

  it("leaves CHANGELOG.md alone: history is its point", () => {
    expect(numberedReferences("CHANGELOG.md", `- Fixed ${ref("operation", 3)}.`)).to.deep.equal([]);
  });
});
