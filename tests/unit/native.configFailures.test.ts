/**
 * The native plugin's CheckConfig at preview: a value still unknown is checked at apply, so a preview
 * fails only for what apply would refuse whatever the unknown value turns out to be.
 */
import { expect } from "chai";
import { providerInputsOrigin } from "../../provider/connection";
import { configFailures } from "../../provider/native/configuration";
import { UNKNOWN_VALUE } from "../../provider/resources/lifecycle";

describe("native plugin: CheckConfig with allowInsecureHttp unknown at preview", () => {
  const origin = providerInputsOrigin("p");

  it("passes plain http to another machine while allowInsecureHttp is unknown (apply checks it)", () => {
    expect(
      configFailures(
        { baseUrl: "http://emulator:8080", token: "t", allowInsecureHttp: UNKNOWN_VALUE },
        {},
        origin,
      ),
    ).to.deep.equal([]);
  });

  it("still checks the rest of the base URL while allowInsecureHttp is unknown", () => {
    const failures = configFailures(
      { baseUrl: "ftp://emulator:8080", token: "t", allowInsecureHttp: UNKNOWN_VALUE },
      {},
      origin,
    );
    expect(failures).to.have.length(1);
    expect(failures[0].reason).to.include('got protocol "ftp:"');
  });

  it("refuses plain http to another machine when allowInsecureHttp is known and not true", () => {
    for (const allowInsecureHttp of [undefined, "false"]) {
      const failures = configFailures(
        { baseUrl: "http://emulator:8080", token: "t", ...(allowInsecureHttp ? { allowInsecureHttp } : {}) },
        {},
        origin,
      );
      expect(failures, String(allowInsecureHttp)).to.have.length(1);
      expect(failures[0].reason).to.include("is plain http to another machine");
    }
  });

  it("refuses plain http in a named connection's base URL when allowInsecureHttp is known", () => {
    const connections = JSON.stringify({ org2: { baseUrl: "http://emulator:8080", token: "t" } });
    expect(
      configFailures({ connections, token: "t", baseUrl: "https://a.example" }, {}, origin),
    ).to.have.length(1);
    expect(
      configFailures(
        { connections, token: "t", baseUrl: "https://a.example", allowInsecureHttp: UNKNOWN_VALUE },
        {},
        origin,
      ),
    ).to.deep.equal([]);
  });
});
