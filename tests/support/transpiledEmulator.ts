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
/** The emulator and what it imports. */
const SOURCE_DIRS = ["emulator", "sdk"];

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
  for (const file of SOURCE_DIRS.flatMap((dir) => filesUnder(join(ROOT, dir)))) {
    const target = join(out, relative(ROOT, file));
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
