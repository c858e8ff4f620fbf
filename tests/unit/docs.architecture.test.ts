/**
 * docs/architecture.md names the folders and files a contributor starts from: each one must exist, or the
 * map leads nowhere. `<name>`, `<area>` and `*` stand for any one path segment; `<kind>` stands for every
 * folder where it appears (each kind must have the file the page names).
 */
import { expect } from "chai";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");
const PAGE = "docs/architecture.md";

/** Import paths, not files: `pulumi-codesec/sdk`. */
const isImportPath = (token: string): boolean => token.startsWith("pulumi-codesec/") || token.startsWith("@");

/** The repository paths a Markdown text names: in code spans (each word that has a `/`) and in links. */
function namedPaths(markdown: string): string[] {
  const tokens = [
    ...[...markdown.matchAll(/`([^`]+)`/g)].flatMap((match) => match[1].split(/\s+/)),
    ...[...markdown.matchAll(/\]\(([^)#\s]+)/g)].map((match) => match[1]),
  ];
  const paths = tokens.filter(
    (token) =>
      token.includes("/") && /^[\w.<>*/-]+$/.test(token) && !isImportPath(token) && !token.includes("://"),
  );
  return [...new Set(paths)];
}

/**
 * Whether `relative` (with `<...>` or `*` placeholders) names an existing file or folder: at least one
 * for a placeholder, one under every folder for `<kind>`.
 */
function exists(base: string, segments: readonly string[]): boolean {
  if (segments.length === 0) return true;
  const [first, ...rest] = segments;
  if (!/[<*]/.test(first)) {
    const next = path.join(base, first);
    return existsSync(next) && (rest.length === 0 || statSync(next).isDirectory()) && exists(next, rest);
  }
  if (!existsSync(base) || !statSync(base).isDirectory()) return false;
  const pattern = new RegExp(
    `^${first
      .split(/(<[^>]+>|\*)/)
      .map((part) => (/^(<[^>]+>|\*)$/.test(part) ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  );
  const entries = readdirSync(base).filter((entry) => pattern.test(entry));
  if (first === "<kind>") {
    const kinds = entries.filter((entry) => statSync(path.join(base, entry)).isDirectory());
    return kinds.length > 0 && kinds.every((kind) => exists(path.join(base, kind), rest));
  }
  return entries.some((entry) => exists(path.join(base, entry), rest));
}

const pathExists = (relative: string): boolean =>
  exists(
    root,
    relative.split("/").filter((s) => s !== ""),
  );

describe(PAGE, () => {
  const text = readFileSync(path.join(root, PAGE), "utf8");

  it("names only paths that exist", () => {
    const named = namedPaths(text);
    expect(named.length, "paths found in the page").to.be.greaterThan(30);
    expect(named.filter((relative) => !pathExists(relative))).to.deep.equal([]);
  });

  it("a path that does not exist, or a placeholder nothing matches, is reported", () => {
    const named = namedPaths(
      "Start in `provider/resources/<kind>/definition.ts`, then `sdk/nowhere.ts`, " +
        "`provider/resources/<kind>/missing.md`, [a link](docs/drift.md) and [another](docs/gone.md), " +
        "not `pulumi-codesec/sdk` nor `npm run docs`.",
    );
    expect(named).to.deep.equal([
      "provider/resources/<kind>/definition.ts",
      "sdk/nowhere.ts",
      "provider/resources/<kind>/missing.md",
      "docs/drift.md",
      "docs/gone.md",
    ]);
    expect(named.filter((relative) => !pathExists(relative))).to.deep.equal([
      "sdk/nowhere.ts",
      "provider/resources/<kind>/missing.md",
      "docs/gone.md",
    ]);
  });

  it("a `<kind>` path must exist under every kind's folder, a `<name>` path under one", () => {
    const tree = mkdtempSync(path.join(os.tmpdir(), "architecture-"));
    try {
      mkdirSync(path.join(tree, "resources/a"), { recursive: true });
      mkdirSync(path.join(tree, "resources/b"), { recursive: true });
      writeFileSync(path.join(tree, "resources/a/docs.md"), "");
      writeFileSync(path.join(tree, "resources/a/resource.ts"), "");
      writeFileSync(path.join(tree, "resources/b/docs.md"), "");
      expect(exists(tree, ["resources", "<kind>", "docs.md"])).to.equal(true);
      expect(exists(tree, ["resources", "<kind>", "resource.ts"])).to.equal(false);
      expect(exists(tree, ["resources", "<name>", "resource.ts"])).to.equal(true);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
    expect(pathExists("provider/resources/<kind>/definition.ts")).to.equal(true);
  });

  it("fits on two printed pages (at most 1,100 words)", () => {
    expect(text.split(/\s+/).filter((word) => word !== "").length).to.be.at.most(1100);
  });
});
