/**
 * docs/architecture.md names the folders and files a contributor starts from: each one must exist, or the
 * map leads nowhere. `<kind>`, `<name>`, `<area>` and `*` stand for any one path segment.
 */
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** Whether `relative` (with `<...>` or `*` placeholders) names at least one existing file or folder. */
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
  return readdirSync(base)
    .filter((entry) => pattern.test(entry))
    .some((entry) => exists(path.join(base, entry), rest));
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

  it("fits on two printed pages (at most 1,100 words)", () => {
    expect(text.split(/\s+/).filter((word) => word !== "").length).to.be.at.most(1100);
  });
});
