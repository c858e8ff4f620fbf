/**
 * The order in which both suites hand out their test files (tests/support/specOrder.js): every test file
 * exactly once, the slowest named first, and a name that is no test file of the suite refused. And the
 * files `npm run test:quick` runs: the first phase's, but for the tests of the project's own scripts.
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");
const { slowestFirst } = require("../support/specOrder") as {
  slowestFirst: (folders: string[], slowest: string[]) => string[];
};

/** Every `*.test.ts` under `folder`, as absolute paths. */
function testFiles(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.join(repoRoot, folder, file));
}

describe("the order of the suites' test files", () => {
  const suites = [
    {
      name: "the first phase (.mocharc.js)",
      config: "../../.mocharc.js",
      folders: ["tests/unit", "tests/integration", "tests/reliability"],
    },
    {
      name: "the end-to-end suite (tests/e2e/.mocharc.js)",
      config: "../e2e/.mocharc.js",
      folders: ["tests/e2e"],
    },
  ];
  for (const { name, config, folders } of suites) {
    it(`${name}: every test file of its folders exactly once`, () => {
      const { spec } = require(config) as { spec: string[] };
      expect(new Set(spec).size, "no file twice").to.equal(spec.length);
      expect([...spec].sort()).to.deep.equal(folders.flatMap(testFiles).sort());
    });
  }

  it("hands out the named files first, in their order, then the others by path", () => {
    const slowest = ["tests/unit/specOrder.test.ts", "tests/reliability/faultMatrix.test.ts"];
    const spec = slowestFirst(["tests/reliability", "tests/unit"], slowest);
    expect(spec.slice(0, 2)).to.deep.equal(slowest.map((file) => path.join(repoRoot, file)));
    const rest = spec.slice(2);
    expect(rest).to.deep.equal([...rest].sort());
    expect(rest).to.not.include(path.join(repoRoot, slowest[0]));
  });

  it("refuses a name that is not a test file of the folders, naming it", () => {
    expect(() =>
      slowestFirst(["tests/unit"], ["tests/unit/renamed.test.ts", "tests/reliability/faultMatrix.test.ts"]),
    ).to.throw(
      "the slowest test files named for tests/unit are not test files there: tests/unit/renamed.test.ts, tests/reliability/faultMatrix.test.ts",
    );
  });
});

describe("npm run test:quick", () => {
  it("runs the first phase's files but the tests of the project's scripts and of the end-to-end configuration", () => {
    const script = (
      JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts["test:quick"];
    const ignore = [...script.matchAll(/--ignore '([^']+)'/g)].map((match) => match[1]);
    const { spec } = require("../../.mocharc.js") as { spec: string[] };
    // Mocha's own selection of the files to run (its --ignore patterns meet the spec's absolute paths).
    const collectFiles = require("mocha/lib/cli/collect-files") as (options: object) => { files: string[] };
    const { files } = collectFiles({
      ignore,
      extension: ["ts"],
      file: [],
      recursive: false,
      sort: false,
      spec,
    });
    const leftOut = (file: string) =>
      path.dirname(file) === path.join(repoRoot, "tests/integration") &&
      (/^scripts\..*\.test\.ts$/.test(path.basename(file)) ||
        path.basename(file) === "e2eMochaConfig.test.ts");
    expect(spec.filter(leftOut)).to.have.length.greaterThan(5);
    expect(files).to.deep.equal(spec.filter((file) => !leftOut(file)));
  });
});
