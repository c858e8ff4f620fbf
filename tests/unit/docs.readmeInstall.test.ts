/**
 * The README's install command for a TypeScript program asks for the TypeScript, ts-node and @types/node
 * that this repository's devDependencies name: the versions the end-to-end harness installs into every
 * program it runs, and the examples' package.json ask for (scripts/examples-check.ts). A bare
 * `npm install -D typescript` now brings a TypeScript that ts-node 10 cannot load.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { commandLines, shellBlocks } from "../support/markdownShell";

const root = path.resolve(__dirname, "../..");
const TOOLCHAIN = ["typescript", "ts-node", "@types/node"];

describe("README: installing a TypeScript program's toolchain", () => {
  it("`npm install -D` names the versions this repository tests with", () => {
    const { devDependencies } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const installs = shellBlocks(root, "README.md")
      .blocks.flatMap(commandLines)
      .map(({ text }) =>
        text
          .replace(/\s+#.*$/, "")
          .trim()
          .split(/\s+/),
      )
      .filter((words) => words[0] === "npm" && words[1] === "install" && words.includes("-D"));
    expect(installs, "an `npm install -D` line in a shell block of README.md").to.have.length(1);
    const specs = installs[0].filter((word) => !word.startsWith("-")).slice(2);
    expect(specs).to.have.members(TOOLCHAIN.map((name) => `${name}@${devDependencies[name]}`));
  });
});
