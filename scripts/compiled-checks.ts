/**
 * Writes api/generated/compiledChecks.ts: TypeBox's compiled check code (`TypeCompiler.Code`) of every
 * schema exported by the API definitions (api/schemas), keyed by api/schemaChecks' `schemaKey`, so the
 * client and the provider check API values without loading TypeBox at run time.
 *
 *   node -r ts-node/register/transpile-only scripts/compiled-checks.ts           write the file
 *   node -r ts-node/register/transpile-only scripts/compiled-checks.ts --check   write nothing; fail when stale (lint)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { KindGuard } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import * as prettier from "prettier";
import * as apiSchemas from "../api/schemas";
import { schemaKey } from "../api/schemaChecks";
import { generatedHeader } from "./generatedHeader";

const TARGET = path.resolve(__dirname, "../api/generated/compiledChecks.ts");
/** Modules whose exported schemas get a generated check. */
const SOURCES: Record<string, Record<string, unknown>> = { "api/schemas": apiSchemas };

async function render(): Promise<string> {
  const entries = new Map<string, { names: string[]; code: string }>();
  for (const [source, exports] of Object.entries(SOURCES)) {
    for (const [name, value] of Object.entries(exports).sort(([a], [b]) => a.localeCompare(b))) {
      if (!KindGuard.IsSchema(value)) continue;
      const key = schemaKey(value);
      const entry = entries.get(key) ?? { names: [], code: TypeCompiler.Code(value) };
      entry.names.push(`${source}: ${name}`);
      entries.set(key, entry);
    }
  }
  const lines = [
    `// ${generatedHeader("`node -r ts-node/register/transpile-only scripts/compiled-checks.ts`", ["api/schemas/"])}`,
    "// Lint fails when it is stale.",
    "",
    "/** TypeBox's compiled check code of each API schema, keyed by api/schemaChecks' `schemaKey`. */",
    "export const COMPILED_CHECKS: Readonly<Record<string, string>> = {",
  ];
  for (const [key, { names, code }] of entries) {
    lines.push(`  // ${names.join(", ")}`, `  ${JSON.stringify(key)}: ${JSON.stringify(code)},`);
  }
  lines.push("};", "");
  const options = (await prettier.resolveConfig(TARGET)) ?? {};
  return prettier.format(lines.join("\n"), { ...options, filepath: TARGET });
}

async function main(): Promise<void> {
  const text = await render();
  const current = fs.existsSync(TARGET) ? fs.readFileSync(TARGET, "utf8") : "";
  if (process.argv.includes("--check")) {
    if (text !== current) {
      console.error(
        `${path.relative(process.cwd(), TARGET)} is stale: the API's schemas changed. Regenerate it with ` +
          "`node -r ts-node/register/transpile-only scripts/compiled-checks.ts`.",
      );
      process.exitCode = 1;
    }
    return;
  }
  if (text !== current) fs.writeFileSync(TARGET, text);
  console.log(`${path.relative(process.cwd(), TARGET)}: ${text === current ? "up to date" : "written"}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
