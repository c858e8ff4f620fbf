/**
 * No module of the package imports itself through others. In a cycle, whichever module Node loads first
 * sees the other's exports still undefined while it loads, so a cycle works only as long as no export is
 * read at load time: a constant moved to module scope then breaks it. Only imports that load a module
 * count: `import type` (and imports of types alone) are erased by the compiler.
 */
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const root = path.resolve(__dirname, "../..");

/** The package's own sources: what `dist/` is built from and a user's program loads. */
const SOURCE_FOLDERS = ["api", "client", "provider", "emulator"];

/** The `.ts` files under `folder`, declaration files aside. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Whether an import declaration loads its module at run time (not `import type`, not types alone). */
function loadsModule(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !(clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
  }
  const clause = node.importClause;
  if (clause === undefined) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name !== undefined) return true;
  const bindings = clause.namedBindings;
  return !(
    bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** The relative module specifiers `text` loads: imports, re-exports, `require(...)` and `import(...)`. */
function loadedSpecifiers(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      loadsModule(node)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const target = node.moduleReference.expression;
      if (!node.isTypeOnly && ts.isStringLiteral(target)) found.push(target.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found.filter((specifier) => specifier.startsWith("."));
}

/** The file a relative specifier of `from` names (`./x` is `./x.ts` or `./x/index.ts`), if it is a source. */
function resolved(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  return [`${target}.ts`, path.join(target, "index.ts")].find((candidate) => existsSync(candidate));
}

/** The import cycles of `graph` (file -> files it loads): its strongly connected components of two or more. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const dependency of graph.get(node) ?? []) {
      if (!graph.has(dependency)) continue;
      if (!index.has(dependency)) {
        connect(dependency);
        low.set(node, Math.min(low.get(node)!, low.get(dependency)!));
      } else if (onStack.has(dependency)) {
        low.set(node, Math.min(low.get(node)!, index.get(dependency)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

describe("the package's import graph", function () {
  // Parsing every source file takes a few seconds on a loaded machine.
  this.timeout(60_000);

  it("has no cycle among the modules the package loads", () => {
    const graph = new Map<string, string[]>();
    for (const folder of SOURCE_FOLDERS) {
      for (const file of sourceFiles(path.join(root, folder))) {
        const loaded = loadedSpecifiers(file, readFileSync(file, "utf8"));
        graph.set(
          file,
          loaded.flatMap((specifier) => resolved(file, specifier) ?? []),
        );
      }
    }
    expect(graph.size, "source files found").to.be.greaterThan(100);
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)));
    expect(cycles).to.deep.equal([]);
  });

  it("finds a cycle through any number of modules, and none where imports only go one way", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(importCycles(graph)).to.deep.equal([["a", "b", "c"], ["e"]]);
    expect(
      importCycles(
        new Map([
          ["a", ["b", "c"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
    ).to.deep.equal([]);
  });

  it("counts what loads a module, and not what only names its types", () => {
    const text = [
      'import { a } from "./a";',
      'import type { B } from "./b";',
      'import { type C } from "./c";',
      'import { d, type D } from "./d";',
      'import "./e";',
      'export { f } from "./f";',
      'export type { G } from "./g";',
      'import h = require("./h");',
      'const i = () => require("./i");',
      'import { j } from "pkg";',
    ].join("\n");
    expect(loadedSpecifiers("x.ts", text)).to.deep.equal(["./a", "./d", "./e", "./f", "./h", "./i"]);
  });
});
