/**
 * The checks generated at build time (api/generated/compiledChecks.ts) must be those of the schemas as
 * they are now: a stale check would accept or refuse what the schema does not.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { KindGuard, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { expect } from "chai";
import * as schemas from "../../api/schemas";
import { schemaKey } from "../../api/schemaChecks";
import { COMPILED_CHECKS } from "../../api/generated/compiledChecks";

const ROOT = path.resolve(__dirname, "../..");

describe("api: checks compiled at build time", function () {
  this.timeout(60_000);

  it("hold every exported schema's current TypeBox code", () => {
    const exported = (Object.entries(schemas) as [string, unknown][]).filter(
      (entry): entry is [string, TSchema] => KindGuard.IsSchema(entry[1]),
    );
    expect(exported.length).to.be.above(30);
    for (const [name, schema] of exported) {
      expect(COMPILED_CHECKS[schemaKey(schema)], name).to.equal(TypeCompiler.Code(schema));
    }
  });

  it("the generator's --check (run by lint) passes on the file as committed", () => {
    execFileSync(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "scripts/compiled-checks.ts", "--check"],
      { cwd: ROOT, stdio: "pipe", env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" } },
    );
  });

  it("a schema changed but not regenerated misses the table (and is compiled at first use instead)", () => {
    const changed = { ...schemas.GetScanArgs, description: "changed" } as TSchema;
    expect(Object.hasOwn(COMPILED_CHECKS, schemaKey(changed))).to.equal(false);
    expect(Object.hasOwn(COMPILED_CHECKS, schemaKey(schemas.GetScanArgs))).to.equal(true);
  });
});
