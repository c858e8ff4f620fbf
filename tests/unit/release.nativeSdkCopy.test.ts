/**
 * The Node.js SDK's packing copies its sources and leaves out its compiled bin/ and any node_modules,
 * judged inside sdk/nodejs: a clone under a path holding "/bin" (e.g. /bin-clones/...) still copies them.
 */
import { expect } from "chai";
import { nativeSdkCopyFilter } from "../../scripts/release/npmPackages";

describe("release: the native SDK's copy before packing", () => {
  for (const clone of ["/work/clone", "/bin-clones/pulumi-codesec", "/home/x/bin/pulumi-codesec"]) {
    const sdk = `${clone}/sdk/nodejs`;
    const copies = nativeSdkCopyFilter(sdk);

    it(`copies the SDK's sources of a clone at ${clone}`, () => {
      expect(copies(sdk)).to.equal(true);
      expect(copies(`${sdk}/index.ts`)).to.equal(true);
      expect(copies(`${sdk}/types/input.ts`)).to.equal(true);
      expect(copies(`${sdk}/binary.ts`)).to.equal(true);
    });

    it(`leaves out bin/ and node_modules of a clone at ${clone}`, () => {
      expect(copies(`${sdk}/bin`)).to.equal(false);
      expect(copies(`${sdk}/bin/index.js`)).to.equal(false);
      expect(copies(`${sdk}/node_modules`)).to.equal(false);
      expect(copies(`${sdk}/types/node_modules/x.js`)).to.equal(false);
    });
  }
});
