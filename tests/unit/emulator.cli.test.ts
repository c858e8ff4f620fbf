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

  it("--allow-host takes host names (repeatable), never a port or a URL; none by default", () => {
    expect(parseCliArgs([]).allowHosts).to.deep.equal([]);
    expect(parseCliArgs(["--allow-host", "emulator", "--allow-host", "10.0.0.5"]).allowHosts).to.deep.equal([
      "emulator",
      "10.0.0.5",
    ]);
    for (const bad of ["emulator:8080", "http://emulator"]) {
      expect(() => parseCliArgs(["--allow-host", bad])).to.throw(
        `--allow-host takes a host name or IP address (no port, no scheme), got ${JSON.stringify(bad)}`,
      );
    }
  });

  it("the time-limit flags set the limits they name, in milliseconds; the others keep their defaults", () => {
    expect(parseCliArgs([]).timeouts).to.deep.equal({});
    expect(
      parseCliArgs([
        "--headers-timeout=1000",
        "--request-timeout=2000",
        "--keep-alive-timeout=3000",
        "--socket-timeout=4000",
      ]).timeouts,
    ).to.deep.equal({ headersMs: 1000, requestMs: 2000, keepAliveMs: 3000, socketIdleMs: 4000 });
    for (const bad of ["0", "1.5", "soon", ""]) {
      expect(() => parseCliArgs([`--request-timeout=${bad}`])).to.throw(
        `--request-timeout must be a whole number of milliseconds from 1, got ${JSON.stringify(bad)}`,
      );
    }
  });
});
