/**
 * The check every end-to-end CLI command's output goes through (tests/e2e/support/cliOutput.ts): what a
 * user reads as an error fails a command that exited 0, a provider's crash fails any command, and a test
 * that expects an error may have one.
 */
import { expect } from "chai";
import { assertNoUnexpectedErrors, unexpectedErrorLines } from "../e2e/support/cliOutput";

/** The engine's report of a plugin stopped without acknowledging its Cancel, as `pulumi preview` prints it. */
const PREMATURE_EXIT = `Previewing update (dev):
     Type                           Name              Plan
     pulumi:pulumi:Stack            codesec-e2e-dev
 +   └─ codesec:index:UserRole     member            create

Diagnostics:
  pulumi:pulumi:Stack (codesec-e2e-dev):
    error: Detected that /home/u/.pulumi/plugins/resource-codesec-v0.5.0/pulumi-resource-codesec exited prematurely.
           This is *always* a bug in the provider. Please report the issue to the provider author as appropriate.

Resources:
    + 1 to create
    1 errored
`;

const CLEAN_PREVIEW = `Previewing update (dev):
     Type                           Name              Plan
     pulumi:pulumi:Stack            codesec-e2e-dev
 +   └─ codesec:index:UserRole     member            create

Diagnostics:
  codesec:index:UserRole (member):
    warning: the user is no longer a member of deployment 1001; a role write that ends in an error: none here

Resources:
    + 1 to create
    1 unchanged
`;

describe("e2e harness: what a CLI command's output must not show", () => {
  it("a command that exited 0 with an error diagnostic or an errored count fails, quoting them", () => {
    const outcome = { args: ["preview"], code: 0, output: PREMATURE_EXIT };
    expect(unexpectedErrorLines(outcome)).to.deep.equal([
      "error: Detected that /home/u/.pulumi/plugins/resource-codesec-v0.5.0/pulumi-resource-codesec exited prematurely.",
      "1 errored",
    ]);
    expect(() => assertNoUnexpectedErrors(outcome))
      .to.throw(/`pulumi preview` exited 0/)
      .with.property("message")
      .that.includes("1 errored")
      .and.includes("Previewing update (dev):");
  });

  it("an error diagnostic alone fails it, and so does one in colour", () => {
    const colour = `${String.fromCharCode(27)}[31m`;
    for (const output of [
      "Diagnostics:\n  pulumi:pulumi:Stack (x):\n    error: update failed\n",
      `${colour}error: boom\n`,
    ]) {
      expect(unexpectedErrorLines({ args: ["up"], code: 0, output })).to.have.length(1);
    }
  });

  it("a clean output passes, warnings and the word error inside a message included", () => {
    expect(unexpectedErrorLines({ args: ["preview"], code: 0, output: CLEAN_PREVIEW })).to.deep.equal([]);
    expect(() =>
      assertNoUnexpectedErrors({ args: ["preview"], code: 0, output: CLEAN_PREVIEW }),
    ).not.to.throw();
  });

  it("a test that expects an error may have one in a command that exited 0, but not a provider's crash", () => {
    const expected =
      "Diagnostics:\n  codesec:index:UserRole (member):\n    error: refused\n\nResources:\n    1 errored\n";
    expect(unexpectedErrorLines({ args: ["up"], code: 0, output: expected }, true)).to.deep.equal([]);
    expect(unexpectedErrorLines({ args: ["up"], code: 0, output: PREMATURE_EXIT }, true)).to.deep.equal([
      "error: Detected that /home/u/.pulumi/plugins/resource-codesec-v0.5.0/pulumi-resource-codesec exited prematurely.",
    ]);
  });

  it("a command that failed is its test's to judge, except a provider's crash", () => {
    const failed = "error: update failed\n\nResources:\n    1 errored\n";
    expect(unexpectedErrorLines({ args: ["up"], code: 255, output: failed })).to.deep.equal([]);
    expect(unexpectedErrorLines({ args: ["up"], code: 255, output: PREMATURE_EXIT })).to.have.length(1);
    expect(unexpectedErrorLines({ args: ["up"], code: null, output: PREMATURE_EXIT })).to.have.length(1);
  });
});
