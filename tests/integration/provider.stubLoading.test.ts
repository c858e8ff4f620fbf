import { expect } from "chai";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { serializedStub } from "../support/serializeStub";

// The dynamic-provider plugin loads a resource's stored provider text with require-from-string; do the
// same, so the stub runs as the engine runs it: resolving pulumi-codesec by name (the built package).
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- the loaded provider is untyped, as in the plugin */
const requireFromString: (
  code: string,
  filename?: string,
) => { handler: () => Record<string, (...args: any[]) => Promise<any>> } = require(
  require.resolve("require-from-string", { paths: [path.dirname(require.resolve("@pulumi/pulumi"))] }),
);

describe("serialized stub loaded by a fresh loader", () => {
  const emulator = useEmulator();

  it("configures from stack config and creates through the installed implementation", async () => {
    const h = emulator();
    const text = await serializedStub("UserRole");
    const provider = requireFromString(text).handler();
    const config: Record<string, string> = { "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken };
    await provider.configure({
      config: { get: (key: string) => config[key], require: (key: string) => config[key] },
    });

    const inputs = {
      deploymentId: h.deploymentId,
      userId: h.sample.memberUserId,
      role: "ORG_ROLE_READONLY",
      __provider: text,
    };
    const check = await provider.check({}, inputs);
    expect(check.failures ?? []).to.deep.equal([]);
    const created = await provider.create(check.inputs);
    expect(created.id).to.equal(`${h.deploymentId}/${h.sample.memberUserId}`);
    expect(
      h.control.state().users.find((u) => u.id === h.sample.memberUserId)?.roles[h.deploymentId],
    ).to.equal("ORG_ROLE_READONLY");
    // check proves the credentials with one read; create makes the one write.
    expect(h.control.requests().map((r) => r.operation)).to.deep.equal(["getCurrentUser", "updateUserRole"]);
  });

  it("reports check failures from the implementation", async () => {
    const provider = requireFromString(await serializedStub("ScmApp")).handler();
    const result = await provider.check({}, { deploymentId: "x", requestId: "r" });
    expect(result.failures.map((f: { property: string }) => f.property)).to.deep.equal(["deploymentId"]);
  });
});
