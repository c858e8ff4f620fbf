/** Which Host headers the emulator answers (the server side: tests/integration/emulator.guards.test.ts). */
import { expect } from "chai";
import { allowedHostNames, hostNameOf, hostRefusal, isHostName } from "../../emulator/allowedHosts";

describe("emulator allowed hosts", () => {
  it("reads the host name of a Host header, with or without a port, IPv6 in brackets", () => {
    expect(hostNameOf("127.0.0.1:8080")).to.equal("127.0.0.1");
    expect(hostNameOf("LOCALHOST")).to.equal("localhost");
    expect(hostNameOf("[::1]:80")).to.equal("::1");
    expect(hostNameOf("[::1]")).to.equal("::1");
    for (const bad of [
      undefined,
      "",
      "::1",
      "a b",
      "localhost:",
      "localhost:123456",
      "x@localhost",
      "h:1:2",
    ]) {
      expect(hostNameOf(bad), String(bad)).to.equal(undefined);
    }
  });

  it("answers the loopback names and the bound host; another bound host is added, not substituted", () => {
    const loopbackOnly = allowedHostNames("127.0.0.1");
    expect([...loopbackOnly].sort()).to.deep.equal(["127.0.0.1", "::1", "localhost"]);
    const bound = allowedHostNames("192.168.1.20", ["Emulator.Test"]);
    for (const host of ["192.168.1.20:1234", "localhost:1", "emulator.test", "[::1]:2"]) {
      expect(hostRefusal(host, bound), host).to.equal(undefined);
    }
    expect(hostRefusal("192.168.1.20:1", loopbackOnly)?.status).to.equal(421);
    expect(allowedHostNames("[::1]").has("::1")).to.equal(true);
  });

  it("words a refusal with the names it answers to, the header it got, and what to do", () => {
    const refusal = hostRefusal("evil.example:80", allowedHostNames("10.0.0.5"));
    expect(refusal?.code).to.equal("MISDIRECTED_REQUEST");
    expect(refusal?.message).to.equal(
      "this emulator answers only requests addressed to 127.0.0.1, localhost and [::1] (and 10.0.0.5), on " +
        'any port; the Host header is "evil.example:80". Call it by one of those names, or start it with ' +
        "--allow-host NAME to answer to another",
    );
    expect(hostRefusal(undefined, allowedHostNames("127.0.0.1"))?.message).to.include(
      "this request has no Host header",
    );
  });

  it("takes host names and IP addresses as allowed hosts, never a port or a URL", () => {
    for (const good of ["emulator", "emulator.test", "10.0.0.5", "::1", "[fe80::1]"]) {
      expect(isHostName(good), good).to.equal(true);
    }
    for (const bad of ["", "emulator:8080", "http://emulator", "a b", "*"]) {
      expect(isHostName(bad), bad).to.equal(false);
    }
  });
});
