/**
 * No page tells a user to write to the shared temporary folder: what the READMEs have users save (the
 * emulator's JSON line, with its tokens) goes to a private `mktemp -d` folder, never to a fixed `/tmp`
 * path that other users and programs can read or that another run overwrites.
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");

function pages(): string[] {
  const under = (dir: string) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".md") && !file.split(path.sep).includes("node_modules"))
      .map((file) => path.join(dir, file));
  return ["README.md", ...under("docs"), ...under("examples")];
}

describe("docs: no fixed path in the shared temporary folder", () => {
  it("no page names a /tmp path", () => {
    const found = pages().flatMap((page) =>
      readFileSync(path.join(root, page), "utf8")
        .split("\n")
        .map((line, i) => ({ line, at: `${page}:${i + 1}` }))
        .filter(({ line }) => /(^|[\s"'=(>])\/tmp\//.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).to.deep.equal([]);
  });
});
