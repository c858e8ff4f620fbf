/**
 * The native provider's scenario (support/nativeSuite.ts) from Python and Go programs on the SDKs
 * generated from the schema (sdk/python, sdk/go) and from a YAML program, through the real CLI: the same steps and assertions as
 * the TypeScript program's (tests/e2e/native.test.ts), the same API calls for each step. The Python
 * program passes its explicit Provider's token and the SCM app code as plain strings (the others pass
 * secrets), and the Python SDK's own secret marking is checked under Pulumi's mocks.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import {
  goProgram,
  goToolchainFor,
  pythonProgram,
  venvPython,
  yamlProgram,
} from "./support/languagePrograms";
import { describeNativeProgram } from "./support/nativeSuite";
import { repoRoot, timeLimitFor } from "./support/harness";

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
  // must be complete, with the Go the Pulumi Go SDK asks for. Built where it is (no workspace, go.mod and
  // go.sum read-only): the build cache keys a package by its folder, so the Go programs' builds, which
  // reach the SDK through a replace to this folder, have already compiled it (a copy elsewhere compiles it
  // again: most of a minute).
  it("`go build ./...` of sdk/go as a module of its own, with go.mod and go.sum as committed (-mod=readonly)", function () {
    this.timeout(timeLimitFor(4));
    const sdk = path.join(repoRoot, "sdk/go");
    // No replace: a user's build ignores it, and built in place a relative one would resolve in this clone.
    expect(readFileSync(path.join(sdk, "go.mod"), "utf8")).not.to.match(/^\s*replace\b|=>\s*\.{1,2}\//m);
    execFileSync("go", ["build", "./..."], {
      cwd: sdk,
      stdio: "pipe",
      env: {
        ...process.env,
        GOWORK: "off",
        GOFLAGS: "-mod=readonly",
        GOSUMDB: "sum.golang.org",
        GOTOOLCHAIN: goToolchainFor(path.join(sdk, "go.mod")),
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
