/**
 * The check every end-to-end CLI command's output goes through (tests/e2e/support/cliOutput.ts): what a
 * user reads as an error fails a command that exited 0, a provider's crash fails any command, and a test
 * that expects an error may have one. The outputs are the CLI's own (`pulumi up --non-interactive` of
 * small programs), cut down.
 */
import { expect } from "chai";
import { assertNoUnexpectedErrors, unexpectedErrorLines } from "../e2e/support/cliOutput";

const ESC = String.fromCharCode(27);

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

/** A failed `pulumi up`: each resource's error under its header, the stack's, and the count of failed steps. */
const FAILED_UP = `Updating (dev):

 +  pulumi-nodejs:dynamic:Resource other creating (0s) error: refused by the platform
 +  pulumi-nodejs:dynamic:Resource other **creating failed** error: refused by the platform
 +  pulumi:pulumi:Stack e2echeck-bad-dev **creating failed (1s)** 1 error; 1 warning
Diagnostics:
  pulumi:pulumi:Stack (e2echeck-bad-dev):
    warning: Could not find a package.json or package.yaml file for the program.
    error: update failed

  pulumi-nodejs:dynamic:Resource (other):
    error: refused by the platform

Resources:
    + 1 created
    3 errored

Duration: 4s
`;

/**
 * A successful `pulumi up` whose words look like errors: a log line that says "errored", a warning that
 * says "error:", outputs named `error` (the key aligned, and nested) and a value "3 errored".
 */
const CLEAN_UP = `Updating (dev):

 +  pulumi:pulumi:Stack e2echeck-ok-dev creating (0s) request errored 2 errored times
 +  pulumi:pulumi:Stack e2echeck-ok-dev creating (0s) warning: a role write that ends in an error: none here
 +  pulumi:pulumi:Stack e2echeck-ok-dev created (1s) 1 warning; 1 message
Diagnostics:
  pulumi:pulumi:Stack (e2echeck-ok-dev):
    info: request errored 2 errored times
    warning: a role write that ends in an error: none here

Outputs:
    error : "none"
    report: {
        error : "nothing"
        status: "3 errored"
    }

Resources:
    + 2 created

Duration: 3s
`;

/** `pulumi stack output --json` of the same stack. */
const OUTPUTS_JSON = `{
  "error": "none",
  "report": {
    "error": "nothing",
    "status": "3 errored"
  }
}
`;

describe("e2e harness: what a CLI command's output must not show", () => {
  it("a command that exited 0 with an error diagnostic or an errored count fails, quoting them", () => {
    const outcome = { command: "pulumi preview", code: 0, output: PREMATURE_EXIT };
    expect(unexpectedErrorLines(outcome)).to.deep.equal([
      "error: Detected that /home/u/.pulumi/plugins/resource-codesec-v0.5.0/pulumi-resource-codesec exited prematurely.",
      "1 errored",
    ]);
    expect(() => assertNoUnexpectedErrors(outcome))
      .to.throw(/`pulumi preview` exited 0/)
      .with.property("message")
      .that.includes("1 errored")
      .and.includes("Previewing update (dev):");
    expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output: FAILED_UP })).to.deep.equal([
      "error: update failed",
      "error: refused by the platform",
      "3 errored",
    ]);
  });

  it("the CLI's own error and the diff display's diagnostics start a line: they fail it too", () => {
    const locked =
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end\n";
    expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output: locked })).to.have.length(1);
  });

  it("an error in colour or after any other terminal sequence (a line's erasure) fails it", () => {
    for (const output of [
      `Diagnostics:\n  pulumi:pulumi:Stack (x):\n    ${ESC}[31merror: ${ESC}[0mupdate failed\n`,
      `Diagnostics:\n  pulumi:pulumi:Stack (x):\n${ESC}[2K    error: update failed\n`,
      `${ESC}[2K${ESC}[1Gerror: boom\n`,
      `Resources:\n    ${ESC}[31m1 errored${ESC}[0m\n`,
    ]) {
      expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output }), output).to.have.length(1);
    }
  });

  it("a clean output passes: warnings, outputs named error, and the words error or errored in a message or a value", () => {
    for (const output of [CLEAN_UP, OUTPUTS_JSON]) {
      expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output }), output).to.deep.equal([]);
      expect(() => assertNoUnexpectedErrors({ command: "pulumi up", code: 0, output })).not.to.throw();
    }
    // The same words out of the sections whose form they have: a single output named error, a count line.
    const outputs = 'Outputs:\n    error: "none"\n\nResources:\n    2 unchanged\n';
    expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output: outputs })).to.deep.equal([]);
    const message = "Diagnostics:\n  pulumi:pulumi:Stack (x):\n    3 errored\n";
    expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output: message })).to.deep.equal([]);
  });

  it("a test that expects an error may have one in a command that exited 0, but not a provider's crash", () => {
    expect(unexpectedErrorLines({ command: "pulumi up", code: 0, output: FAILED_UP }, true)).to.deep.equal(
      [],
    );
    expect(
      unexpectedErrorLines({ command: "pulumi up", code: 0, output: PREMATURE_EXIT }, true),
    ).to.deep.equal([
      "error: Detected that /home/u/.pulumi/plugins/resource-codesec-v0.5.0/pulumi-resource-codesec exited prematurely.",
    ]);
  });

  it("a command that failed is its test's to judge, except a provider's crash", () => {
    expect(unexpectedErrorLines({ command: "pulumi up", code: 255, output: FAILED_UP })).to.deep.equal([]);
    expect(unexpectedErrorLines({ command: "pulumi up", code: 255, output: PREMATURE_EXIT })).to.have.length(
      1,
    );
    expect(unexpectedErrorLines({ command: "pulumi up", code: null, output: PREMATURE_EXIT })).to.have.length(
      1,
    );
  });
});
