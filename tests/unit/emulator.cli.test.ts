/** The command line of `codesec-emulator`, parsed (the process itself: tests/integration/emulator.cli.test.ts). */
import { expect } from "chai";
import { parseCliArgs } from "../../emulator/cli";

describe("codesec-emulator arguments", () => {
  it("--rate-limit takes a positive number of requests per second; none by default", () => {
    expect(parseCliArgs([])).not.to.have.property("rateLimit");
    expect(parseCliArgs(["--rate-limit", "50"]).rateLimit).to.equal(50);
    expect(parseCliArgs(["--rate-limit", "0.5"]).rateLimit).to.equal(0.5);
  });

  it("refuses a --rate-limit that is not a positive number, saying what it got", () => {
    for (const bad of ["0", "-3", "fast", "", "1e999", "Infinity"]) {
      expect(() => parseCliArgs([`--rate-limit=${bad}`])).to.throw(
        `--rate-limit must be a positive number of requests per second, got ${JSON.stringify(bad)}`,
      );
    }
  });
});
