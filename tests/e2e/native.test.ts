/**
 * The native provider through the real Pulumi CLI: the plugin `pulumi-resource-codesec` (this tree's
 * release archive, installed with `pulumi plugin install` into the stack's PULUMI_HOME, any plugin on PATH
 * ignored) and a TypeScript program on the generated Node.js SDK, against the
 * emulator, in the scenario every language's program runs (support/nativeSuite.ts), with the steps that
 * test the provider itself (customTimeouts, import refusals).
 */
import * as path from "node:path";
import { packedNativeSdk, prepareProgram } from "./support/harness";
import { describeNativeProgram } from "./support/nativeSuite";

describeNativeProgram({
  language: "TypeScript",
  prepare: () => ({
    dir: prepareProgram(path.join(__dirname, "programs/native"), { tarball: packedNativeSdk() }),
    env: {},
  }),
  providerSteps: true,
});
