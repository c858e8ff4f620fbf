/**
 * A connection comes whole from one source. Before, resolveConnection merged field by field, so an
 * explicit connection without a token (or with a blank one) was sent with codesec:token or
 * CODESEC_TOKEN: another organization's token went to the explicit base URL.
 */
import { expect } from "chai";
import {
  CodeSecConnectionError,
  MissingCredentialsError,
  resolveConnection,
} from "../../provider/connection";

describe("credential resolution: one source, whole", () => {
  const config = (values: Record<string, string>) => (key: string) => values[key];
  const ambient = config({ "codesec:baseUrl": "http://stack", "codesec:token": "stack-token" });
  const env = { CODESEC_BASE_URL: "http://env", CODESEC_TOKEN: "env-token" };

  function field(fn: () => unknown): string {
    try {
      fn();
    } catch (error) {
      expect(error).to.be.instanceOf(CodeSecConnectionError);
      return (error as CodeSecConnectionError).field;
    }
    throw new Error("expected a CodeSecConnectionError");
  }

  it("takes an explicit connection, else stack config, else the environment", () => {
    expect(resolveConnection({ baseUrl: "http://explicit", token: "t" }, ambient, env)).to.include({
      baseUrl: "http://explicit",
      token: "t",
    });
    expect(resolveConnection(undefined, ambient, env)).to.include({
      baseUrl: "http://stack",
      token: "stack-token",
    });
    expect(resolveConnection(undefined, config({}), env)).to.include({
      baseUrl: "http://env",
      token: "env-token",
    });
  });

  for (const [name, explicit] of [
    ["only a baseUrl", { baseUrl: "http://explicit" }],
    ["an empty token", { baseUrl: "http://explicit", token: "" }],
    ["a blank token", { baseUrl: "http://explicit", token: "   " }],
    ["a null token", { baseUrl: "http://explicit", token: null }],
  ] as const) {
    it(`never pairs an explicit baseUrl with an ambient token: ${name}`, () => {
      expect(field(() => resolveConnection(explicit, ambient, env))).to.equal("connection.token");
    });
  }

  it("never pairs an explicit token with an ambient baseUrl", () => {
    expect(field(() => resolveConnection({ token: "t" }, ambient, env))).to.equal("connection.baseUrl");
  });

  it("refuses unknown fields in an explicit connection", () => {
    expect(
      field(() => resolveConnection({ baseUrl: "http://x", token: "t", tokn: "t" }, ambient, env)),
    ).to.equal("connection.tokn");
  });

  it("does not mix stack config with the environment", () => {
    expect(
      field(() => resolveConnection(undefined, config({ "codesec:baseUrl": "http://stack" }), env)),
    ).to.equal("codesec:token");
    expect(field(() => resolveConnection(undefined, config({ "codesec:token": "t" }), env))).to.equal(
      "codesec:baseUrl",
    );
    expect(field(() => resolveConnection(undefined, config({}), { CODESEC_TOKEN: "env-token" }))).to.equal(
      "CODESEC_BASE_URL",
    );
  });

  it("resolves a named connection from codesec:connections", () => {
    const named = config({
      ...{ "codesec:baseUrl": "http://stack", "codesec:token": "stack-token" },
      "codesec:connections": JSON.stringify({ org2: { baseUrl: "http://org2", token: "org2-token" } }),
    });
    const resolved = resolveConnection("org2", named, env);
    expect(resolved).to.include({ baseUrl: "http://org2", token: "org2-token" });
    expect(resolved.fields).to.deep.equal({
      baseUrl: "codesec:connections.org2.baseUrl",
      token: "codesec:connections.org2.token",
    });
  });

  it("names the missing part of a named connection, and never falls back", () => {
    const partial = config({
      "codesec:baseUrl": "http://stack",
      "codesec:token": "stack-token",
      "codesec:connections": JSON.stringify({ org2: { baseUrl: "http://org2" }, org3: { token: "x" } }),
    });
    expect(field(() => resolveConnection("org2", partial, env))).to.equal("codesec:connections.org2.token");
    expect(field(() => resolveConnection("org3", partial, env))).to.equal("codesec:connections.org3.baseUrl");
    // The undefined name is not echoed: it may be a token passed in the wrong place.
    expect(() => resolveConnection("org4", partial, env))
      .to.throw(/connection names no connection defined.*defined: org2, org3/)
      .with.property("message")
      .that.does.not.include("org4");
    expect(field(() => resolveConnection("bad name!", partial, env))).to.equal("connection");
  });

  it("never echoes a malformed codesec:connections value (it may hold tokens)", () => {
    const broken = config({ "codesec:connections": '{"org2": {"token": "s3cret-token"' });
    expect(() => resolveConnection("org2", broken, env))
      .to.throw(CodeSecConnectionError)
      .with.property("message")
      .that.does.not.include("s3cret");
  });

  it("fails with one error naming every way when nothing is set", () => {
    expect(() => resolveConnection(undefined, config({}), {}))
      .to.throw(MissingCredentialsError)
      .with.property("message")
      .that.includes("codesec:baseUrl")
      .and.includes("codesec:token")
      .and.includes("CODESEC_BASE_URL")
      .and.includes("CODESEC_TOKEN")
      .and.includes("codesec:connections");
  });
});
