import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { serializerModuleName, stubProvider } from "../../provider/dynamic/stubProvider";
import { pinnedLegacyStub, RESOURCE_KINDS, serializedStub } from "../support/serializeStub";

const repoRoot = path.resolve(__dirname, "../..");

describe("serialized provider stub (__provider)", () => {
  it("is one object per kind, so the engine serializes each kind once per run, not once per resource", () => {
    // The engine caches serialized providers by object: a new object per resource costs 7-13 ms each.
    for (const kind of RESOURCE_KINDS) expect(stubProvider(kind), kind).to.equal(stubProvider(kind));
    expect(stubProvider("UserRole")).not.to.equal(stubProvider("ScmApp"));
  });

  it("every kind has its package subpath pulumi-codesec/dynamic/<Kind>, the entry module the short stub loads", () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      exports: Record<string, { default: string }>;
    };
    for (const kind of RESOURCE_KINDS) {
      expect(manifest.exports[`./dynamic/${kind}`]?.default, kind).to.equal(
        `./dist/provider/generated/engineEntries/${kind}.js`,
      );
      expect(existsSync(path.join(repoRoot, `provider/generated/engineEntries/${kind}.ts`)), kind).to.equal(
        true,
      );
    }
  });

  it("the short form is chosen only where the serializer names the package's own entry file", () => {
    const entry = "pulumi-codesec/dist/provider/generated/engineEntries/UserRole.js";
    const cases: [string, string | undefined][] = [
      // npm: the program's node_modules
      [`/p/node_modules/${entry}`, entry],
      // pnpm: the package after the store's last node_modules
      [`/p/node_modules/.pnpm/pulumi-codesec@0.4.0/node_modules/${entry}`, entry],
      // nested in another package: the name would be x/node_modules/..., tied to that layout
      [`/p/node_modules/x/node_modules/${entry}`, `x/node_modules/${entry}`],
      // outside node_modules (npm link): serialized by value, so the legacy form
      [`/src/pulumi-codesec/dist/provider/generated/engineEntries/UserRole.js`, undefined],
    ];
    for (const [file, name] of cases) expect(serializerModuleName(file, "/p"), file).to.equal(name);
  });

  for (const kind of RESOURCE_KINDS) {
    describe(kind, () => {
      let text: string;
      before(async () => {
        text = await serializedStub(kind);
      });

      it("is at most 2 KB", () => {
        expect(Buffer.byteLength(text, "utf8")).to.be.at.most(2048);
      });

      it("outside node_modules (this repository) is the legacy form, byte-identical to what 0.1.0 stored", () => {
        // If this fails, the legacy stub changed: it is what stacks of 0.1.0 to 0.3.0 store, and what
        // a package loaded from outside node_modules (npm link) stores. Never update the fixture.
        expect(text).to.equal(pinnedLegacyStub(kind));
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
    expect(fromElsewhere).to.equal(pinnedLegacyStub("ScmApp"));
  });
});
