/**
 * scripts/examples-check.ts (run by `npm run lint`): the examples' manifests ask for the package's
 * current version and the dependency versions this repository tests with, and their tsconfigs do not
 * skip the libraries' type check.
 */
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { exampleProblems, satisfies } from "../../scripts/examples-check";

const root = path.resolve(__dirname, "../..");

describe("scripts/examples-check", () => {
  it("finds no problem in this repository's examples", () => {
    expect(exampleProblems(root)).to.deep.equal([]);
  });

  it("reads ranges as npm does", () => {
    expect(satisfies("0.4.0", "^0.4.0")).to.equal(true);
    expect(satisfies("0.4.3", "^0.4.0")).to.equal(true);
    expect(satisfies("0.5.0", "^0.4.0")).to.equal(false);
    expect(satisfies("0.4.0", "^0.1.0")).to.equal(false);
    expect(satisfies("3.270.0", "^3.259.0")).to.equal(true);
    expect(satisfies("3.258.9", "^3.259.0")).to.equal(false);
    expect(satisfies("4.0.0", "^3.259.0")).to.equal(false);
    expect(satisfies("5.9.7", "~5.9.3")).to.equal(true);
    expect(satisfies("5.10.0", "~5.9.3")).to.equal(false);
    expect(satisfies("0.0.3", "^0.0.3")).to.equal(true);
    expect(satisfies("0.0.4", "^0.0.3")).to.equal(false);
    expect(satisfies("2.0.0", ">=1.0.0")).to.equal(true);
    expect(satisfies("1.2.3", "1.2.3")).to.equal(true);
    expect(satisfies("1.2.4", "1.2.3")).to.equal(false);
    // Every form npm reads, not only ^, ~, >= and exact versions.
    expect(satisfies("1.9.0", "^1.2")).to.equal(true);
    expect(satisfies("2.0.0", "1.x")).to.equal(false);
    expect(satisfies("1.4.9", ">=1.0.0 <1.5.0")).to.equal(true);
    expect(satisfies("1.5.0", ">=1.0.0 <1.5.0")).to.equal(false);
    expect(satisfies("3.0.0", "^1.0.0 || ^3.0.0")).to.equal(true);
    expect(satisfies("1.0.0-rc.1", "^1.0.0")).to.equal(false);
    // A dist-tag or a URL is not a range: the check says so rather than guessing.
    expect(satisfies("1.2.3", "latest")).to.equal(undefined);
    expect(satisfies("1.2.3", "github:owner/repo")).to.equal(undefined);
  });

  it("reports a dependency asked for by a dist-tag, which no release can be checked against", () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-examples-tag-"));
    try {
      writeFileSync(
        path.join(scratch, "package.json"),
        JSON.stringify({ name: "pulumi-codesec", version: "0.5.0" }),
      );
      writeFileSync(path.join(scratch, "package-lock.json"), JSON.stringify({ packages: {} }));
      const example = path.join(scratch, "examples", "tagged");
      mkdirSync(example, { recursive: true });
      writeFileSync(
        path.join(example, "package.json"),
        JSON.stringify({ dependencies: { "pulumi-codesec": "latest" } }),
      );
      expect(exampleProblems(scratch)).to.deep.equal([
        'examples/tagged/package.json: pulumi-codesec "latest" is not a semver range',
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("names a workflow that calls a bin older releases than the example's range accepts do not have", () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-examples-bins-"));
    try {
      writeFileSync(
        path.join(scratch, "package.json"),
        JSON.stringify({ name: "pulumi-codesec", version: "0.5.0" }),
      );
      writeFileSync(path.join(scratch, "package-lock.json"), JSON.stringify({ packages: {} }));
      const example = path.join(scratch, "examples", "review");
      mkdirSync(path.join(example, ".github", "workflows"), { recursive: true });
      // >=0.4.0 includes 0.5.0, so only the bin check can see that 0.4.x has no codesec-review.
      writeFileSync(
        path.join(example, "package.json"),
        JSON.stringify({ dependencies: { "pulumi-codesec": ">=0.4.0" } }),
      );
      writeFileSync(
        path.join(example, ".github", "workflows", "review.yml"),
        'jobs:\n  r:\n    steps:\n      - run: "$PROGRAM_DIR/node_modules/.bin/codesec-review" preview.json\n',
      );
      expect(exampleProblems(scratch)).to.deep.equal([
        'examples/review: a workflow calls codesec-review, which pulumi-codesec has since 0.5.0, but package.json accepts pulumi-codesec ">=0.4.0"',
      ]);
      writeFileSync(
        path.join(example, "package.json"),
        JSON.stringify({ dependencies: { "pulumi-codesec": ">=0.5.0" } }),
      );
      expect(exampleProblems(scratch)).to.deep.equal([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  describe("on an example that a release forgot", () => {
    let scratch: string;

    before(() => {
      scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-examples-check-"));
      writeFileSync(
        path.join(scratch, "package.json"),
        JSON.stringify({ name: "pulumi-codesec", version: "0.5.0" }),
      );
      writeFileSync(
        path.join(scratch, "package-lock.json"),
        JSON.stringify({ packages: { "node_modules/typescript": { version: "5.9.3" } } }),
      );
      const example = path.join(scratch, "examples", "old");
      mkdirSync(example, { recursive: true });
      writeFileSync(
        path.join(example, "package.json"),
        JSON.stringify({
          dependencies: { "pulumi-codesec": "^0.4.0", "left-pad": "^1.0.0" },
          devDependencies: { typescript: "^4.9.0" },
        }),
      );
      writeFileSync(
        path.join(example, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: true } }),
      );
    });

    after(() => rmSync(scratch, { recursive: true, force: true }));

    it("names every problem: the package's range, a dependency's range, skipLibCheck", () => {
      expect(exampleProblems(scratch)).to.deep.equal([
        'examples/old/package.json: pulumi-codesec "^0.4.0" does not include 0.5.0, the version in package.json',
        'examples/old/package.json: typescript "^4.9.0" does not include 5.9.3, the version package-lock.json holds',
        "examples/old/tsconfig.json sets skipLibCheck: the examples type-check the libraries they use",
      ]);
    });
  });
});
