/**
 * The native provider's scenario (support/nativeSuite.ts) from Python and Go programs on the SDKs
 * generated from the schema (sdk/python, sdk/go) and from a YAML program, through the real CLI: the same steps and assertions as
 * the TypeScript program's (tests/e2e/native.test.ts), the same API calls for each step.
 */
import * as path from "node:path";
import { goProgram, pythonProgram, yamlProgram } from "./support/languagePrograms";
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
