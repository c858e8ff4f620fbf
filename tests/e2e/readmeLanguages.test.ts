/**
 * The README's Python, Go and YAML programs (its first ```python, ```go and ```yaml blocks), as a user
 * copies them, run through the real Pulumi CLI on the generated SDKs and the native plugin against the
 * emulator's default fixtures, with the stack config the README names (`codesec:baseUrl`, `codesec:token`,
 * `scmAppCode`), the Go one in a module made by the README's recipe, run as written: `up`, a no-change
 * preview, and `destroy`, with the outputs the README's TypeScript
 * program has (the YAML one exports the rules that need attention whole: YAML cannot filter a list).
 * The Python and Go programs are generated from provider/examples/readme.pp (scripts/docs.ts writes them
 * into the README); the YAML one is written by hand.
 */
import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import {
  createStack,
  nativePluginEnv,
  repoRoot,
  requirePulumiCli,
  scratchDir,
  timeLimitFor,
} from "./support/harness";
import { GO_SDK_MODULE, goProgram, pythonProgram, yamlProgram } from "./support/languagePrograms";

/** The README's code blocks in `language` (the fence's info string), in order. */
function readmeBlocks(language: string): string[] {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  return [...readme.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
    (block) => block[1],
  );
}

/** The README's first code block in `language`. */
function readmeBlock(language: string): string {
  const [block] = readmeBlocks(language);
  if (block === undefined) throw new Error(`README.md has no \`\`\`${language} block`);
  return block;
}

/** A project folder with the README's program in `language` as its entry (`file`). */
function readmeProject(language: "python" | "go" | "yaml", file: string): string {
  const dir = scratchDir(`readme-${language}-source`);
  if (language !== "yaml") {
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: codesec-readme-${language}\nruntime: ${language}\n`,
    );
  }
  fs.writeFileSync(path.join(dir, file), readmeBlock(language));
  if (language === "go") runReadmeGoRecipe(dir);
  return dir;
}

/**
 * The README's recipe for a Go program's module (its ```sh block that runs `go mod init`), run as written
 * in the program's folder `dir`, with `clone` set to this clone as the recipe asks; then the Pulumi Go SDK
 * it resolved must be the one sdk/go pins (a newer one would compile a second Pulumi SDK on the first
 * `pulumi up`). Go's own settings, as a user's shell has them: no workspace.
 */
function runReadmeGoRecipe(dir: string): void {
  const recipe = readmeBlocks("sh").find((block) => /^go mod init /m.test(block));
  if (!recipe) throw new Error("README.md has no ```sh block with the Go program's `go mod init` recipe");
  const result = spawnSync("bash", ["-euo", "pipefail", "-c", recipe], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, clone: repoRoot, GOWORK: "off", GOFLAGS: "" },
  });
  expect(result.status, `${result.stdout}${result.stderr}`).to.equal(0);
  const pulumiSdk = (goMod: string) => requiredVersion(goMod, "github.com/pulumi/pulumi/sdk/v3");
  expect(pulumiSdk(path.join(dir, "go.mod"))).to.equal(pulumiSdk(path.join(repoRoot, "sdk/go/go.mod")));
  expect(requiredVersion(path.join(dir, "go.mod"), GO_SDK_MODULE)).to.not.equal(undefined);
}

/** The version of `module` that the go.mod `goMod` requires (`go mod edit -json`), if any. */
function requiredVersion(goMod: string, module: string): string | undefined {
  const json = JSON.parse(
    execFileSync("go", ["mod", "edit", "-json", goMod], {
      encoding: "utf8",
      env: { ...process.env, GOWORK: "off" },
    }),
  ) as { Require?: { Path: string; Version: string }[] };
  return json.Require?.find((requirement) => requirement.Path === module)?.Version;
}

const LANGUAGES = [
  {
    language: "Python",
    project: "codesec-readme-python",
    prepare: () => pythonProgram(readmeProject("python", "__main__.py")),
    rulesOutput: "misconfiguredRules",
  },
  {
    language: "Go",
    project: "codesec-readme-go",
    prepare: () => goProgram(readmeProject("go", "main.go")),
    rulesOutput: "misconfiguredRules",
  },
  {
    language: "YAML",
    // The README's block is the whole Pulumi.yaml, its project name included.
    project: "codesec-org",
    prepare: () => yamlProgram(readmeProject("yaml", "Pulumi.yaml")),
    rulesOutput: "rulesWithProblems",
  },
];

for (const { language, project, prepare, rulesOutput } of LANGUAGES) {
  describe(`the README's ${language} program through the real Pulumi CLI`, function () {
    let emulator: EmulatorHandle;

    before(async () => {
      console.log(`      using ${requirePulumiCli()}`);
      emulator = await startEmulator({ quiet: true });
    });
    after(async () => {
      await emulator?.close();
    });

    it("up, then a preview with no changes, then destroy", async () => {
      const program = prepare();
      const pluginEnv = nativePluginEnv();
      const stack = await createStack(
        program.dir,
        "readme",
        {
          "codesec:baseUrl": { value: emulator.baseUrl },
          "codesec:token": { value: emulator.apiToken, secret: true },
          [`${project}:scmAppCode`]: { value: emulator.sample.scmAppCode, secret: true },
        },
        { ...program.env, ...pluginEnv },
      );

      const up = await stack.up();
      expect(up.summary.result).to.equal("succeeded");
      expect(Object.keys(up.outputs).sort()).to.deep.equal(["appSlug", rulesOutput, "workflowFiles"].sort());
      expect(up.outputs.appSlug.value).to.equal("codesec-acme");
      expect(up.outputs[rulesOutput].value).to.have.length.greaterThan(0);
      expect(Object.keys(up.outputs.workflowFiles.value as object)).to.have.length.greaterThan(0);
      expect(emulator.control.state().users.find((u) => u.id === "502")?.roles["1001"]).to.equal(
        "ORG_ROLE_ADMIN",
      );

      const preview = await stack.preview({ expectNoChanges: true });
      expect(Object.keys(preview.changeSummary)).to.deep.equal(["same"]);

      const destroy = await stack.destroy();
      expect(destroy.summary.result).to.equal("succeeded");
      expect(emulator.control.state().users.find((u) => u.id === "502")?.roles["1001"]).to.equal(
        "ORG_ROLE_MEMBER",
      );
    }).timeout(timeLimitFor(4));
  });
}
