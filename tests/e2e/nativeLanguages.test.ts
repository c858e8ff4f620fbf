/**
 * The native provider's scenario (support/nativeSuite.ts) from Python and Go programs on the SDKs
 * generated from the schema (sdk/python, sdk/go) and from a YAML program, through the real CLI: the same steps and assertions as
 * the TypeScript program's (tests/e2e/native.test.ts), the same API calls for each step. The Python
 * program passes its explicit Provider's token and the SCM app code as plain strings (the others pass
 * secrets), and the Python SDK's own secret marking is checked under Pulumi's mocks.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import * as path from "node:path";
import {
  goProgram,
  goToolchainFor,
  pythonProgram,
  venvPython,
  yamlProgram,
} from "./support/languagePrograms";
import { describeNativeProgram } from "./support/nativeSuite";
import { repoRoot, scratchDir, timeLimitFor } from "./support/harness";

describeNativeProgram({
  language: "Python",
  prepare: () => pythonProgram(path.join(__dirname, "programs/native-python")),
  providerSteps: false,
});

describeNativeProgram({
  language: "Go",
  prepare: () => goProgram(path.join(__dirname, "programs/native-go")),
  providerSteps: false,
  // The first build of a Go program compiles the Pulumi Go SDK: minutes on a cold build cache.
  programRunLimitMs: timeLimitFor(4),
});

describeNativeProgram({
  language: "YAML",
  prepare: () => yamlProgram(path.join(__dirname, "programs/native-yaml")),
  providerSteps: false,
  asksPluginVersion: false,
});

describe("the Go SDK on its own", () => {
  // A user's program requires the module, not this clone: its go.mod and go.sum (scripts/tidy-go-sdk.sh)
  // must be complete, with the Go the Pulumi Go SDK asks for (about half a minute with a warm module cache).
  it("`go build ./...` in a copy of sdk/go, with go.mod and go.sum as committed (-mod=readonly)", function () {
    this.timeout(timeLimitFor(4));
    const copy = scratchDir("sdk-go");
    cpSync(path.join(repoRoot, "sdk/go"), copy, { recursive: true });
    execFileSync("go", ["build", "./..."], {
      cwd: copy,
      stdio: "pipe",
      env: {
        ...process.env,
        GOWORK: "off",
        GOFLAGS: "-mod=readonly",
        GOSUMDB: "sum.golang.org",
        GOTOOLCHAIN: goToolchainFor(path.join(copy, "go.mod")),
      },
    });
  });
});

describe("the Python SDK's secret marking", () => {
  // The plugin marks the schema's secret inputs secret too, so the state of a program that passes plain
  // strings is encrypted whether or not the SDK marked them: the SDK's own marking is seen only in what
  // it sends the engine, which Pulumi's mocks show.
  it("sends an explicit Provider's token and an ScmApp's code as secrets when the program passes plain strings", () => {
    const { dir, env } = pythonProgram(path.join(__dirname, "programs/python-sdk-secrets"));
    const printed = execFileSync(venvPython, [path.join(dir, "check_secrets.py")], {
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(JSON.parse(printed.trim().split("\n").at(-1)!)).to.deep.equal({
      providerToken: true,
      scmAppCode: true,
    });
  });
});
