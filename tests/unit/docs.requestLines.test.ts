/**
 * Every request line written in the sources users read (reference-page sources, TSDoc, hover docs, guides,
 * messages) is one of the catalogue's (api/operations.ts): a changed path or method fails here until every
 * text naming the old one follows. A line may give ids for the parameters, or shorten the path's start to
 * `...`.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { OPERATIONS, type OperationSpec } from "../../api/operations";

const root = path.resolve(__dirname, "../..");
const SOURCES = /^(?:api|client|provider|emulator|docs)\/.*\.(?:ts|md)$|^README\.md$/;
const OUTSIDE = /^(?:sdk\/(?:nodejs|python|go)|emulator\/dist)\//;
const REQUEST_LINE = /\b(GET|POST|PUT|PATCH|DELETE)[ \t]+((?:\.\.\.)?\/[^\s`"'),;*]*)/g;

function pattern(spec: OperationSpec): RegExp {
  const escaped = spec.path
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\\\{[A-Za-z]+\\\}/g, "(?:\\{[A-Za-z]+\\}|[^/{}]+)");
  return new RegExp(`^${escaped}$`);
}
const CATALOGUE = Object.values(OPERATIONS as Record<string, OperationSpec>).map((spec) => ({
  spec,
  pattern: pattern(spec),
}));

/** Whether `method path` names a catalogue operation: its path, with ids or not, or its end after `...`. */
function isCatalogued(method: string, requested: string): boolean {
  return CATALOGUE.some(
    ({ spec, pattern }) =>
      spec.method === method &&
      (requested.startsWith(".../") ? spec.path.endsWith(requested.slice(3)) : pattern.test(requested)),
  );
}

/** `file: METHOD path` for each request line in the sources that no catalogue operation has. */
function uncatalogued(): string[] {
  const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => SOURCES.test(file) && !OUTSIDE.test(file));
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const [, method, raw] of text.matchAll(REQUEST_LINE)) {
      const requested = raw.replace(/[.:]$/, "");
      // `GET /api/...` stands for any request, not for one operation.
      if (requested === "/api/..") continue;
      if (!requested.startsWith("/api/") && !requested.startsWith(".../")) continue;
      if (!isCatalogued(method, requested)) found.push(`${file}: ${method} ${requested}`);
    }
  }
  return found;
}

describe("request lines in docs and messages", () => {
  it("every one names an operation of the catalogue, with its method and path", () => {
    expect(uncatalogued()).to.deep.equal([]);
  });

  it("knows a request line from one the catalogue does not have", () => {
    expect(isCatalogued("GET", "/api/v2/deployments/{deploymentId}/scans/{scanId}")).to.equal(true);
    expect(isCatalogued("GET", "/api/v2/deployments/42/scans/7")).to.equal(true);
    expect(isCatalogued("PATCH", ".../users/{userId}/roles")).to.equal(true);
    expect(isCatalogued("POST", "/api/v2/deployments/{deploymentId}/scans/{scanId}")).to.equal(false);
    expect(isCatalogued("GET", "/api/v1/deployments/{deploymentId}/scans/{scanId}")).to.equal(false);
    expect(isCatalogued("GET", "/api/v2/deployments/{deploymentId}/scan/{scanId}")).to.equal(false);
    expect(isCatalogued("PATCH", ".../users/{userId}/role")).to.equal(false);
  });
});
