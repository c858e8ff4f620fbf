/**
 * What the engine loads to run a resource: the kind's entry module (the short stub's
 * `pulumi-codesec/dynamic/<Kind>`) or the legacy `pulumi-codesec/dynamic`, counted in modules in a
 * fresh process (counts are deterministic; bench/moduleLoad.ts measures the time). TypeBox's index is
 * about 200 modules: none of them may load with the provider.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { expect } from "chai";
import { engineEntryFile } from "../../provider/generatedLayout";
import { kindFolder } from "../../provider/resources/kindFolder";
import { RESOURCE_KINDS } from "../support/serializeStub";

const ROOT = path.resolve(__dirname, "../..");

type LoadedBy = Map<string, string[]>;

/**
 * Modules that loading each of `files` adds after @pulumi/pulumi (which the provider host has loaded
 * already), by file: one process for all, each file's modules dropped from the require cache before the
 * next loads, so that each count is what a fresh process would load. The files load in the order given,
 * then again in reverse (`inReverse`): a module that stayed loaded from one file to the next would change
 * a file's set with the order.
 */
function modulesLoadedBy(files: readonly string[]): { inOrder: LoadedBy; inReverse: LoadedBy } {
  const script = `
    require("@pulumi/pulumi");
    const before = new Set(Object.keys(require.cache));
    const pass = (order) => {
      const loaded = {};
      for (const file of order) {
        require(file);
        loaded[file] = Object.keys(require.cache).filter((f) => !before.has(f));
        for (const f of loaded[file]) delete require.cache[f];
      }
      return loaded;
    };
    const files = ${JSON.stringify(files)};
    process.stdout.write(JSON.stringify({ inOrder: pass(files), inReverse: pass([...files].reverse()) }));
  `;
  const out = execFileSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "--conditions=codesec-source", "-e", script],
    { cwd: ROOT, encoding: "utf8" },
  );
  const { inOrder, inReverse } = JSON.parse(out) as Record<"inOrder" | "inReverse", Record<string, string[]>>;
  return { inOrder: new Map(Object.entries(inOrder)), inReverse: new Map(Object.entries(inReverse)) };
}

const LEGACY_ENTRY = path.join(ROOT, "provider/dynamic/index.ts");
const kindEntry = (kind: string): string => path.join(ROOT, engineEntryFile(kind));

describe("module load of the provider: counts", function () {
  this.timeout(60_000);
  const entries = [...RESOURCE_KINDS.map(kindEntry), LEGACY_ENTRY];
  let loadedBy: LoadedBy;
  let loadedInReverse: LoadedBy;

  before(() => {
    ({ inOrder: loadedBy, inReverse: loadedInReverse } = modulesLoadedBy(entries));
  });

  it("each entry loads the same modules whichever entries loaded before it in the process", () => {
    for (const entry of entries) {
      expect(loadedInReverse.get(entry)?.slice().sort(), path.relative(ROOT, entry)).to.deep.equal(
        loadedBy.get(entry)?.slice().sort(),
      );
    }
    expect(loadedBy.get(entries[0])).to.have.length.above(0);
  });

  for (const kind of RESOURCE_KINDS) {
    it(`${kind}'s entry module loads no TypeBox module, and no other kind`, () => {
      const loaded = loadedBy.get(kindEntry(kind))!;
      expect(loaded.filter((f) => f.includes("@sinclair"))).to.deep.equal([]);
      const otherKinds = RESOURCE_KINDS.filter((k) => k !== kind).map(kindFolder);
      expect(loaded.filter((f) => otherKinds.some((k) => f.includes(`/resources/${k}/`)))).to.deep.equal([]);
      // The provider and the typed client are about 60 modules (2 of them the dynamic-provider host's stop
      // when the engine is gone, hostShutdown.ts and engineGone.ts; 1 the confirmation of a role's
      // deployment, credentialsDeployment.ts); TypeBox alone would add about 200.
      expect(loaded.length).to.be.at.most(67);
    });
  }

  it("the legacy entry (pulumi-codesec/dynamic) loads no TypeBox module either", () => {
    const loaded = loadedBy.get(LEGACY_ENTRY)!;
    expect(loaded.filter((f) => f.includes("@sinclair"))).to.deep.equal([]);
  });
});
