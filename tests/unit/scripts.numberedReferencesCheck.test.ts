/**
 * scripts/numbered-references-check.ts (run by `npm run lint`): no line names a tracker issue, a review
 * comparison or an operation by its number in the spec; each one found is named by file and line.
 */
import { expect } from "chai";
import * as path from "node:path";
import { numberedReferences, repositoryNumberedReferences } from "../../scripts/numbered-references-check";

const root = path.resolve(__dirname, "../..");
// Built from parts, so that this file does not hold the references it checks for.
const ref = (word: string, n: number): string => `${word} ${n}`;

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
    expect(numberedReferences("sdk/client.ts", text)).to.deep.equal([
      `sdk/client.ts:2: // see ${ref("issue", 15)}`,
      `sdk/client.ts:3: const name = "${ref("comparison", 10)}";`,
      `sdk/client.ts:4: Create and update set it (${ref("operation", 1)}).`,
      `sdk/client.ts:5: ${ref("Operation", 8)}, \`GET /api/auth/users/current\`.`,
      `sdk/client.ts:6: reads (${ref("operations", 4)}, 6-10)`,
      `sdk/client.ts:7: fixed in ${ref("issue", 0).replace(" ", " #")}12`,
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

  it("leaves CHANGELOG.md alone: history is its point", () => {
    expect(numberedReferences("CHANGELOG.md", `- Fixed ${ref("operation", 3)}.`)).to.deep.equal([]);
  });
});
