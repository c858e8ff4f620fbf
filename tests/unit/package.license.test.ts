/**
 * The license package.json declares is the one the repository and the published tarball carry: the
 * standard Apache License 2.0 text in LICENSE, listed by `npm pack`.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");

describe("the license", function () {
  // `npm pack --dry-run` takes a few seconds on a loaded machine.
  this.timeout(60_000);

  it("package.json's Apache-2.0 is the text of LICENSE, with the project's copyright line", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { license: string };
    expect(manifest.license).to.equal("Apache-2.0");
    const text = readFileSync(path.join(root, "LICENSE"), "utf8");
    expect(text).to.match(
      /^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\//,
    );
    expect(text).to.include("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
    expect(text).to.include("END OF TERMS AND CONDITIONS");
    expect(text).to.include("Copyright 2026 The pulumi-codesec authors");
  });

  it("`npm pack` ships LICENSE", () => {
    const listing = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--silent"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as { files: { path: string }[] }[];
    expect(listing[0].files.map((f) => f.path)).to.include("LICENSE");
  });
});
