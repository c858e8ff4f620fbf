/**
 * The native provider's scenario (support/nativeSuite.ts) from Python and Go programs on the SDKs
 * generated from the schema (sdk/python, sdk/go) and from a YAML program, through the real CLI: the same steps and assertions as
 * the TypeScript program's (tests/e2e/native.test.ts), the same API calls for each step. The Python
 * program passes its explicit Provider's token and the SCM app code as plain strings (the others pass
 * secrets), and the Python SDK's own secret marking is checked under Pulumi's mocks.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { goProgram, pythonProgram, venvPython, yamlProgram } from "./support/languagePrograms";
import { describeNativeProgram } from "./support/nativeSuite";
import { timeLimitFor } from "./support/harness";

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
    expect(JSON.parse(printed.trim().split("\n").at(-1)!)).to.deep.equal({ providerToken: true, scmAppCode: true });
  });
});
