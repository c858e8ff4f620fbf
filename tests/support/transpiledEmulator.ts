/**
 * The emulator's command (`emulator/cli.ts`) transpiled once into a temporary directory, for tests that
 * start it as a child process many times. It is the same transformation `ts-node --transpile-only` makes
 * (TypeScript's transpileModule with the project's compiler options), done once instead of at every start:
 * a start then costs a Node start (a fraction of a second) instead of a compile of every source (seconds).
 * The sources come from the working tree, so the test runs the code as it is, never a stale build.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as ts from "typescript";

const ROOT = join(__dirname, "..", "..");
/**
 * The emulator package, and the API definitions it imports as `pulumi-codesec/api`: those go to a
 * `node_modules/pulumi-codesec` of the copy's own, so the child loads them from the working tree too.
 */
const SOURCE_DIRS: Record<string, string> = {
  emulator: "emulator",
  api: join("node_modules", "pulumi-codesec", "api"),
};

export interface TranspiledEmulator {
  /** Arguments for `process.execPath` that run `codesec-emulator`; append the command's own options. */
  command: string[];
  /** Environment for the child: resolves packages from this repository's node_modules. */
  env: NodeJS.ProcessEnv;
  /** Deletes the transpiled copy. */
  remove(): void;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

export function transpileEmulator(): TranspiledEmulator {
  const out = mkdtempSync(join(tmpdir(), "codesec-emulator-js-"));
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const compilerOptions = { ...options, sourceMap: false, declaration: false };
  const apiPackage = join(out, "node_modules", "pulumi-codesec");
  mkdirSync(apiPackage, { recursive: true });
  writeFileSync(
    join(apiPackage, "package.json"),
    JSON.stringify({ name: "pulumi-codesec", exports: { "./api": "./api/index.js" } }),
  );
  const sources = Object.entries(SOURCE_DIRS).flatMap(([dir, copyDir]) =>
    filesUnder(join(ROOT, dir))
      .filter(
        (file) =>
          !relative(join(ROOT, dir), file)
            .split(/[\\/]/)
            .some((part) => part === "dist" || part === "node_modules"),
      )
      .map((file) => [file, join(out, copyDir, relative(join(ROOT, dir), file))] as const),
  );
  for (const [file, target] of sources) {
    mkdirSync(join(target, ".."), { recursive: true });
    if (file.endsWith(".ts") && !file.endsWith(".d.ts")) {
      const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
        compilerOptions,
        fileName: file,
      });
      writeFileSync(target.replace(/\.ts$/, ".js"), outputText);
    } else if (file.endsWith(".json")) {
      copyFileSync(file, target);
    }
  }
  return {
    command: [join(out, "emulator", "cli.js")],
    env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") },
    remove: () => rmSync(out, { recursive: true, force: true }),
  };
}
