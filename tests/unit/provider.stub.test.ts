import { expect } from "chai";
import { execFileSync } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import { pinnedStub, RESOURCE_KINDS, serializedStub } from "../support/serializeStub";

const repoRoot = path.resolve(__dirname, "../..");

describe("serialized provider stub (__provider)", () => {
  for (const kind of RESOURCE_KINDS) {
    describe(kind, () => {
      let text: string;
      before(async () => {
        text = await serializedStub(kind);
      });

      it("is at most 2 KB", () => {
        expect(Buffer.byteLength(text, "utf8")).to.be.at.most(2048);
      });

      it("is byte-identical to the pinned text, so upgrades never change stored providers", () => {
        // If this fails, the stub changed: every existing stack would store a different provider.
        // Only update tests/fixtures/stub.template.js with a deliberate, documented compatibility decision.
        expect(text).to.equal(pinnedStub(kind));
      });

      it("loads the implementation by package name and holds no path or secret", () => {
        expect(text).to.include('require("pulumi-codesec/dynamic")');
        expect(text).not.to.include(repoRoot);
        expect(text).not.to.include(os.homedir());
        expect(text).not.to.match(/node_modules|\/work\/|\/home\/|\/tmp\/|[A-Z]:\\/);
        expect(text).not.to.match(/token|jwt|code"/i);
      });
    });
  }

  it("is the same when serialized from another working directory", function () {
    this.timeout(60_000);
    const fromElsewhere = execFileSync(
      process.execPath,
      [
        "-r",
        require.resolve("ts-node/register/transpile-only"),
        path.join(repoRoot, "tests/support/serializeStub.ts"),
        "ScmApp",
      ],
      {
        cwd: os.tmpdir(),
        encoding: "utf8",
        env: { ...process.env, TS_NODE_PROJECT: path.join(repoRoot, "tsconfig.json") },
      },
    );
    expect(fromElsewhere).to.equal(pinnedStub("ScmApp"));
  });
});
