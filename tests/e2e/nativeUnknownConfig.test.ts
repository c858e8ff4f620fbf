/**
 * An explicit Provider whose configuration is known only at apply (its token comes from a resource the
 * same run creates), through the real CLI on the installed plugin: at preview the engine configures the
 * plugin with the unknown placeholder; the plugin must take it as unknown, not as a token: no request
 * with it, no error, the resources on that provider planned with their platform unknown. The apply then
 * configures it with the real token. Every command of such a program (an explicit Provider beside the
 * default provider: two plugin processes the engine stops at its end) ends with no error shown: each
 * plugin acknowledges the engine's Cancel and ends within the engine's grace, so the engine reports no
 * crash of the provider.
 */
import { expect } from "chai";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { unexpectedErrorLines } from "./support/cliOutput";
import { createNativeStack, packedNativeSdk, prepareProgram, requirePulumiCli } from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/native-unknown-config");

describe("native provider: an explicit Provider whose token is unknown at preview", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    const dir = prepareProgram(PROGRAM, { tarball: packedNativeSdk() });
    stack = await createNativeStack(dir, "unknown-config", {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "e2e:baseUrl": { value: emulator.baseUrl },
      "e2e:token": { value: emulator.apiToken, secret: true },
    });
  });

  after(async () => {
    await emulator?.close();
  });

  it("preview: no request with the placeholder, no error, the resource planned", async () => {
    emulator.control.clearRequests();
    const preview = await stack.preview();
    expect(preview.changeSummary).to.deep.equal({ create: 4 });
    // The default provider's one credential check; nothing refused, nothing written.
    const requests = emulator.control.requests();
    expect(requests.map((r) => `${r.operation}:${r.status}`)).to.deep.equal(["getCurrentUser:200"]);
  });

  it("up: the provider is configured with the real token and the role is set", async () => {
    const up = await stack.up();
    expect(up.summary.resourceChanges).to.deep.equal({ create: 4 });
    expect(up.outputs.memberRole.value).to.equal("ORG_ROLE_READONLY");
    expect(up.outputs.memberPlatform.value).to.equal(emulator.baseUrl);
    expect(emulator.control.state().users.find((u) => u.id === "502")?.roles["1001"]).to.equal(
      "ORG_ROLE_READONLY",
    );
  });

  it("preview, up and preview again, over and over: no error, no provider crash, nothing errored", async function () {
    this.timeout(10 * 60_000);
    const commands: [string, () => Promise<{ stdout: string; stderr: string }>][] = [
      ["preview", () => stack.preview()],
      ["preview", () => stack.preview()],
      ["up", () => stack.up()],
      ["preview", () => stack.preview()],
      ["preview", () => stack.preview()],
    ];
    for (const [name, command] of commands) {
      const { stdout, stderr } = await command();
      const output = stdout + stderr;
      expect(unexpectedErrorLines({ command: `pulumi ${name}`, code: 0, output }), output).to.deep.equal([]);
    }
  });
});
