/**
 * What the tarball gives a bug report. Pulumi's processes map stack frames through source maps
 * (source-map-support), so a frame names the file a map's `sources` entry points at: each such file must
 * be in the tarball, or the report points at a file the user does not have.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { docsExamples, examplePrograms } from "../../scripts/docsExamples";
import { packedPackage, repoRoot, scratchDir } from "./support/harness";

/** Every file under `dir`, relative to it, with `/` separators. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const relative = prefix === "" ? name : `${prefix}/${name}`;
    return statSync(path.join(dir, name)).isDirectory()
      ? filesUnder(path.join(dir, name), relative)
      : [relative];
  });
}

describe("the packed package's source maps", () => {
  // The tarball unpacked once: every test reads it, none writes.
  let root: string;
  let packed: Set<string>;

  before(() => {
    const dir = scratchDir("unpacked");
    execFileSync("tar", ["-xzf", packedPackage(), "-C", dir]);
    root = path.join(dir, "package");
    packed = new Set(filesUnder(root));
  });

  it("name only sources that the tarball holds, and the tarball holds no other source", () => {
    const missing: string[] = [];
    const named = new Set<string>();
    for (const map of [...packed].filter((file) => file.endsWith(".map"))) {
      const { sources, sourceRoot = "" } = JSON.parse(readFileSync(path.join(root, map), "utf8")) as {
        sources: string[];
        sourceRoot?: string;
      };
      for (const source of sources) {
        const file = path.posix.normalize(path.posix.join(path.posix.dirname(map), sourceRoot, source));
        named.add(file);
        if (!packed.has(file)) missing.push(`${map} -> ${file}`);
      }
    }
    expect(missing).to.deep.equal([]);
    // And no other TypeScript source rides along (the generated Node SDK in sdk/nodejs is a package of its
    // own), but the docs' example programs under docs/examples, which are read, not run from the package.
    const unmapped = [...packed].filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !named.has(f) && !f.startsWith("docs/examples/"),
    );
    expect(unmapped).to.deep.equal([]);
  });

  it("carries no native plugin: that ships as its release archive, with the gRPC stack the package leaves out", () => {
    const plugin = [...packed].filter(
      (file) => file.includes("native/") || file.includes("pulumi-resource-codesec"),
    );
    expect(plugin).to.deep.equal([]);
  });

  it("holds the docs examples the pages link to and docs/examples/README.md describes: every program and its PCL source", () => {
    const examples = docsExamples(repoRoot);
    expect(examples.length).to.be.greaterThan(10);
    const wanted = [
      "docs/examples/README.md",
      ...examples.flatMap((example) => [
        example.source,
        ...examplePrograms(example).map((program) => program.file),
      ]),
    ];
    expect(wanted.filter((file) => !packed.has(file))).to.deep.equal([]);
    // Every link of a shipped page to an example's program or source resolves in the tarball.
    const broken: string[] = [];
    for (const page of [...packed].filter((file) => file.endsWith(".md"))) {
      const text = readFileSync(path.join(root, page), "utf8");
      for (const [, link] of text.matchAll(/\]\(([^)#\s]+)\)/g)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), link));
        if ((target.startsWith("docs/examples/") || target.endsWith(".pp")) && !packed.has(target))
          broken.push(`${page} -> ${link}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });
});
