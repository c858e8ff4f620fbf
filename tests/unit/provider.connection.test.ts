import { expect } from "chai";
import { MissingCredentialsError, resolveConnection } from "../../provider/connection";

describe("credential resolution", () => {
  const config = (values: Record<string, string>) => (key: string) => values[key];

  it("prefers an explicit connection, then stack config, then the environment", () => {
    const env = { CODESEC_BASE_URL: "http://env", CODESEC_TOKEN: "env-token" };
    const stack = config({ "codesec:baseUrl": "http://stack", "codesec:token": "stack-token" });
    expect(resolveConnection({ baseUrl: "http://explicit", token: "t" }, stack, env)).to.deep.equal({
      baseUrl: "http://explicit",
      token: "t",
    });
    expect(resolveConnection(undefined, stack, env)).to.deep.equal({
      baseUrl: "http://stack",
      token: "stack-token",
    });
    expect(resolveConnection(undefined, config({}), env)).to.deep.equal({
      baseUrl: "http://env",
      token: "env-token",
    });
  });

  it("mixes sources field by field", () => {
    const result = resolveConnection(undefined, config({ "codesec:baseUrl": "http://stack" }), {
      CODESEC_TOKEN: "env",
    });
    expect(result).to.deep.equal({ baseUrl: "http://stack", token: "env" });
  });

  it("fails with one error naming all three ways when nothing is set", () => {
    expect(() => resolveConnection(undefined, config({}), {}))
      .to.throw(MissingCredentialsError)
      .with.property("message")
      .that.includes("codesec:baseUrl")
      .and.includes("codesec:token")
      .and.includes("CODESEC_BASE_URL")
      .and.includes("CODESEC_TOKEN")
      .and.includes("connection");
  });

  it("treats blank values as missing", () => {
    expect(() => resolveConnection({ baseUrl: " ", token: "" }, config({}), {})).to.throw(
      /base URL and the API token/,
    );
  });
});
