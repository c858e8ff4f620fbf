/**
 * What the tarball gives a bug report. Pulumi's processes map stack frames through source maps
 * (source-map-support), so a frame names the file a map's `sources` entry points at: each such file must
 * be in the tarball, or the report points at a file the user does not have.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { packedPackage, scratchDir } from "./support/harness";

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
  it("name only sources that the tarball holds, and the tarball holds no other source", () => {
    const dir = scratchDir("unpacked");
    execFileSync("tar", ["-xzf", packedPackage(), "-C", dir]);
    const root = path.join(dir, "package");
    const packed = new Set(filesUnder(root));
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
    // And no other TypeScript source rides along (the generated Node SDK in sdk/nodejs is a package of its own).
    const unmapped = [...packed].filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !named.has(f));
    expect(unmapped).to.deep.equal([]);
  });

  it("carries no native plugin: that ships as its release archive, with the gRPC stack the package leaves out", () => {
    const dir = scratchDir("unpacked");
    execFileSync("tar", ["-xzf", packedPackage(), "-C", dir]);
    const plugin = filesUnder(path.join(dir, "package")).filter(
      (file) => file.includes("native/") || file.includes("pulumi-resource-codesec"),
    );
    expect(plugin).to.deep.equal([]);
  });
});
