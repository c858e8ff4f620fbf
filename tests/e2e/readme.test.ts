/**
 * The README's main program, as a user copies it: extracted from README.md (the first ```ts block that
 * imports pulumi-codesec), with the stack config keys the README's set-up block sets (`pulumi config set`),
 * run through the real Pulumi CLI against the emulator's default fixtures: `up`, a no-change
 * `preview --expect-no-changes`, and `destroy`.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { commandLines, shellBlocks } from "../support/markdownShell";
import {
  createStack,
  repoRoot,
  requirePulumiCli,
  scratchDir,
  useModules,
  installedModules,
  packedPackage,
  timeLimitFor,
} from "./support/harness";

function readmeProgram(): string {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const block = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].find((m) =>
    m[1].includes('from "pulumi-codesec"'),
  );
  if (!block) throw new Error("README.md has no program importing pulumi-codesec");
  return block[1];
}

/**
 * The keys the README's `pulumi config set [--secret] <key> <value>` lines set, in order, each once (the
 * installation section and the program's set-up both set the connection's keys, the same way).
 */
function readmeConfigKeys(): { key: string; secret: boolean }[] {
  const keys = new Map<string, boolean>();
  for (const words of shellBlocks(repoRoot, "README.md")
    .blocks.flatMap(commandLines)
    .map(({ text }) => text.trim().split(/\s+/))
    .filter((words) => words.slice(0, 3).join(" ") === "pulumi config set")) {
    const key = words.filter((word) => !word.startsWith("--"))[3];
    const secret = words.includes("--secret");
    if (keys.has(key) && keys.get(key) !== secret) {
      throw new Error(`README.md sets ${key} both with and without --secret`);
    }
    keys.set(key, secret);
  }
  return [...keys].map(([key, secret]) => ({ key, secret }));
}

describe("the README's program through the real Pulumi CLI", function () {
  let emulator: EmulatorHandle;

  before(async () => {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
  });
  after(async () => {
    await emulator?.close();
  });

  it("up, then a preview with no changes, then destroy", async () => {
    const dir = scratchDir("readme-program");
    // The same project files as the org-config example, with the README's program as its entry.
    for (const file of ["Pulumi.yaml", "package.json", "tsconfig.json"]) {
      fs.copyFileSync(path.join(repoRoot, "examples/org-config", file), path.join(dir, file));
    }
    fs.writeFileSync(path.join(dir, "index.ts"), readmeProgram());
    useModules(dir, installedModules(packedPackage()));
    // The emulator's value for each setting the README names (the key's last part).
    const values: Record<string, string> = {
      baseUrl: emulator.baseUrl,
      token: emulator.apiToken,
      scmAppCode: emulator.sample.scmAppCode,
    };
    const keys = readmeConfigKeys();
    expect(keys.map(({ key }) => key.split(":").pop())).to.have.members(Object.keys(values));
    const stack = await createStack(
      dir,
      "readme",
      Object.fromEntries(
        keys.map(({ key, secret }) => [key, { value: values[key.split(":").pop()!], secret }]),
      ),
    );

    const up = await stack.up();
    expect(up.summary.result).to.equal("succeeded");
    expect(Object.keys(up.outputs).sort()).to.deep.equal(["appSlug", "misconfiguredRules", "workflowFiles"]);
    expect(up.outputs.appSlug.value).to.equal("codesec-acme");

    const preview = await stack.preview({ expectNoChanges: true });
    expect(Object.keys(preview.changeSummary)).to.deep.equal(["same"]);

    const destroy = await stack.destroy();
    expect(destroy.summary.result).to.equal("succeeded");
  }).timeout(timeLimitFor(3));
});
