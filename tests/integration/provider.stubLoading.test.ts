import { expect } from "chai";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { pinnedShortStub, serializedStub } from "../support/serializeStub";

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

  const forms: [string, () => Promise<string>][] = [
    ["the legacy stub (0.1.0 to 0.3.0, or a package outside node_modules)", () => serializedStub("UserRole")],
    [
      "the short stub (0.4.0, a package under node_modules)",
      () => Promise.resolve(pinnedShortStub("UserRole")),
    ],
  ];
  for (const [form, textOf] of forms) {
    it(`${form} configures from stack config and creates through the installed implementation`, async () => {
      const h = emulator();
      const text = await textOf();
      const provider = requireFromString(text).handler();
      // A token of its own: both forms load the same built implementation, whose checks are per connection.
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: h.sample.userId,
        kind: "apiToken",
      });
      const config: Record<string, string> = { "codesec:baseUrl": h.baseUrl, "codesec:token": credential };
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
      expect(h.control.requests().map((r) => r.operation)).to.deep.equal([
        "getCurrentUser",
        "updateUserRole",
      ]);
    });
  }

  it("reports check failures from the implementation", async () => {
    const provider = requireFromString(await serializedStub("ScmApp")).handler();
    const result = await provider.check({}, { deploymentId: "x", requestId: "r" });
    expect(result.failures.map((f: { property: string }) => f.property)).to.deep.equal(["deploymentId"]);
  });
});
