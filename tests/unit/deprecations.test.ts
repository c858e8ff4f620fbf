/**
 * A deprecation's promise is kept: an export whose TSDoc says "Removed in X" is gone by the release that
 * has version X (package.json's version is the release being made), so the promise cannot outlive it
 * unnoticed as the four result-type aliases "removed in 0.4.0" once did.
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");
const SOURCE_FOLDERS = ["provider", "client", "api", "emulator"];

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.split(path.sep).includes("node_modules"))
    .filter((file) => !file.split(path.sep).includes("dist"))
    .map((file) => path.join(folder, file));
}

function versionParts(version: string): number[] {
  return version.split("-")[0].split(".").map(Number);
}

/** Whether version `a` comes after version `b` (major.minor.patch; pre-release tags ignored). */
function after(a: string, b: string): boolean {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

describe("deprecations", () => {
  it("no export outlives the release its TSDoc says it is removed in", () => {
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      version: string;
    };
    const overdue: string[] = [];
    for (const file of SOURCE_FOLDERS.flatMap(sourceFiles)) {
      const lines = readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        const promise = /@deprecated.*\bRemoved in (\d+\.\d+\.\d+)/i.exec(line);
        if (promise && !after(promise[1], version)) {
          overdue.push(`${file}:${i + 1} is still there in ${version}: ${line.trim()}`);
        }
      });
    }
    expect(overdue).to.deep.equal([]);
  });

  it("compares versions by their numbers", () => {
    expect(after("0.10.0", "0.9.9")).to.equal(true);
    expect(after("0.4.0", "0.4.0")).to.equal(false);
    expect(after("0.4.0", "0.5.0-rc.1")).to.equal(false);
    expect(after("1.0.0", "0.99.99")).to.equal(true);
  });
});
