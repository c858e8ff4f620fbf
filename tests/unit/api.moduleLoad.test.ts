/**
 * How much loading the client and the API definitions costs, counted in modules (counts are
 * deterministic; load times are measured by bench/moduleLoad.ts, never asserted). TypeBox's index loads
 * about 200 modules: the client and the api load none of them, and the first checks of valid values load
 * none either; TypeBox's error iterator is loaded only to explain a value that fails.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { expect } from "chai";

const ROOT = path.resolve(__dirname, "../..");

interface LoadCount {
  /** Modules loaded by the step, TypeBox's included. */
  total: number;
  typebox: number;
}

/**
 * Runs `steps` (JavaScript, with `root` the repository root) in a fresh Node.js process that has already
 * loaded the TypeScript hook, and counts the modules each step loads.
 */
function countModules(steps: string[]): LoadCount[] {
  const script = `
    const root = ${JSON.stringify(ROOT)};
    const counts = [];
    for (const step of ${JSON.stringify(steps)}) {
      const before = new Set(Object.keys(require.cache));
      eval(step);
      const added = Object.keys(require.cache).filter((file) => !before.has(file));
      counts.push({ total: added.length, typebox: added.filter((file) => file.includes("@sinclair")).length });
    }
    process.stdout.write(JSON.stringify(counts));
  `;
  const out = execFileSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "--conditions=codesec-source", "-e", script],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" } },
  );
  return JSON.parse(out) as LoadCount[];
}

describe("module load: counts", function () {
  this.timeout(60_000);

  it("pulumi-codesec/api loads no TypeBox module, and few of its own", () => {
    const [api] = countModules([`require(root + "/api/index.ts")`]);
    expect(api.typebox).to.equal(0);
    expect(api.total).to.be.at.most(16);
  });

  it("pulumi-codesec/sdk loads no TypeBox module, and few of its own", () => {
    const [sdk] = countModules([`require(root + "/client/index.ts")`]);
    expect(sdk.typebox).to.equal(0);
    expect(sdk.total).to.be.at.most(40);
  });

  it("checking valid values loads no TypeBox module; explaining a bad one loads its error iterator then", () => {
    const [, valid, invalid] = countModules([
      `globalThis.api = require(root + "/api/index.ts")`,
      `if (api.firstSchemaIssue(api.GetScanArgs, { deploymentId: "1", scanId: "2" }) !== undefined) throw new Error("valid")`,
      `if (api.firstSchemaIssue(api.GetScanArgs, { deploymentId: "x", scanId: "2" })?.path !== "deploymentId") throw new Error("invalid")`,
    ]);
    expect(valid.typebox).to.equal(0);
    expect(invalid.typebox).to.be.above(0);
  });
});
