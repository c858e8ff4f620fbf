/**
 * Which failures the package raises on purpose (shown as their message alone) and which are bugs (shown
 * with their stack), and a function's failure as its Output form reports it in the program.
 */
import { expect } from "chai";
import * as pulumi from "@pulumi/pulumi";
import { CodeSecConnectionError, isExpectedFailure } from "../../provider/errors";
import { getCurrentUser, getCurrentUserOutput } from "../../provider/generated/functions/getCurrentUser";
import { bugs, expectedFailures } from "../support/failureSamples";

describe("failures raised on purpose and bugs", () => {
  describe("isExpectedFailure", () => {
    for (const error of expectedFailures) {
      it(`${error.name} is a failure raised on purpose`, () => {
        expect(isExpectedFailure(error)).to.equal(true);
      });
    }
    it("a TypeError, a RangeError, a plain Error, a look-alike name and a non-Error are not", () => {
      for (const error of [...bugs, "a string", undefined, { name: "CodeSecError", message: "x" }]) {
        expect(isExpectedFailure(error), String(error)).to.equal(false);
      }
    });
  });

  describe("a function's failure raised on purpose, in the program", () => {
    // A named connection that stack config does not define: every environment fails it the same way.
    const opts = { connection: "nope" };

    it("the Output form fails with a pulumi.RunError (printed as its message alone), without frames", async () => {
      // `promise()` is @pulumi/pulumi's own way to await an Output; a rejected Output runs no apply.
      const output = getCurrentUserOutput({}, opts) as unknown as { promise(): Promise<unknown> };
      const failure = await output.promise().then(
        () => undefined,
        (e: unknown) => e,
      );
      const plain = await getCurrentUser({}, opts).catch((e: unknown) => e);
      expect(plain).to.be.instanceOf(CodeSecConnectionError);
      expect(pulumi.RunError.isInstance(failure), String(failure)).to.equal(true);
      expect((failure as Error).message).to.equal((plain as Error).message);
      expect((failure as Error).stack).to.not.match(/\n\s+at /);
    });
  });
});
