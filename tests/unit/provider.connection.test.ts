/**
 * A connection comes whole from one source. Before, resolveConnection merged field by field, so an
 * explicit connection without a token (or with a blank one) was sent with codesec:token or
 * CODESEC_TOKEN: another organization's token went to the explicit base URL.
 */
import { expect } from "chai";
import {
  providerInputsOrigin,
  resolveConnection,
  STACK_CONFIG,
  type ConfigOrigin,
} from "../../provider/connection";
import { CodeSecConnectionError, MissingCredentialsError } from "../../provider/errors";

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

  it("stack config's command to set the token: the same in the advice on a missing token and on missing credentials", () => {
    const command = "pulumi config set --secret codesec:token <token>";
    expect(() => resolveConnection(undefined, config({ "codesec:baseUrl": "http://stack" }), {}))
      .to.throw(CodeSecConnectionError)
      .with.property("message")
      .that.equals(
        "stack config sets codesec:baseUrl but not codesec:token: a token is never taken from another source " +
          `than its base URL. Set it (${command}), or remove codesec:baseUrl.`,
      );
    expect(new MissingCredentialsError().message).to.include(
      `stack config (\`pulumi config set codesec:baseUrl <url>\` and \`${command}\`), `,
    );
    expect(STACK_CONFIG.howToSet("codesec:token", "<token>", { secret: true })).to.equal(
      `run \`${command}\``,
    );
  });

  it("MissingCredentialsError, as the package exports it: stack config's words, or a named Provider's", () => {
    const thrown = (origin: ConfigOrigin) => {
      try {
        resolveConnection(
          undefined,
          Object.assign(() => undefined, { origin }),
          {},
        );
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected an error");
    };
    expect(new MissingCredentialsError().message).to.equal(thrown(STACK_CONFIG));
    // A Provider is named by its name alone: the constructor takes no internal origin.
    expect(new MissingCredentialsError("org2").message).to.equal(thrown(providerInputsOrigin("org2")));
    expect(new MissingCredentialsError("org2").message).to.include(
      'the baseUrl and token inputs of provider "org2"',
    );
    // No Provider has the empty name: it is no name, not `provider ""`.
    expect(new MissingCredentialsError("").message).to.equal(thrown(STACK_CONFIG));
  });

  it("a Provider's name is quoted with no raw line break or control character (C1, DEL, U+2028, U+2029)", () => {
    // JSON.stringify escapes C0 controls, quotes and backslashes, but leaves these as they are: they would
    // break or garble the line a message is printed on (the rule of isMessageLine, client/optionChecks.ts).
    const name = 'org\u2028two\u2029\u0085\u009f\u007f\n"\\';
    const origin = providerInputsOrigin(name);
    expect(origin.label).to.equal(
      String.raw`provider "org\u2028two\u2029\u0085\u009f\u007f\n\"\\" (codesec.Provider resource inputs)`,
    );
    const messages = [
      origin.label,
      origin.where("codesec:timeoutMs"),
      origin.howToSetToken,
      origin.howToSetCredentials,
      origin.connectionSource("team2"),
      new MissingCredentialsError(name).message,
    ];
    for (const message of messages) {
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      expect(message).not.to.match(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      expect(message).to.include(String.raw`"org\u2028two\u2029\u0085\u009f\u007f\n\"\\"`);
    }
    // A name with none of them reads as before.
    expect(providerInputsOrigin("org2").label).to.equal('provider "org2" (codesec.Provider resource inputs)');
  });

  describe("how to define a named connection: the same words in every message that advises it", () => {
    const lookup = (values: Record<string, string>, origin: ConfigOrigin) =>
      Object.assign((key: string) => values[key], { origin });
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected an error");
    };
    const stackCommands = (name: string) =>
      `\`pulumi config set --path codesec:connections.${name}.baseUrl <url>\` and ` +
      `\`pulumi config set --secret --path codesec:connections.${name}.token <token>\``;
    const providerInput = (name: string) =>
      `the connections input of provider "org2", an object of named connections ` +
      `(\`connections: { ${JSON.stringify(name)}: { baseUrl: "<url>", token: <secret token> } }\`)`;

    it("stack config: no credentials, a name not defined, a broken connection, connections not an object", () => {
      const none = lookup({}, STACK_CONFIG);
      expect(message(() => resolveConnection(undefined, none, {}))).to.equal(
        "pulumi-codesec: no credentials. Set them in one of three ways: stack config " +
          "(`pulumi config set codesec:baseUrl <url>` and `pulumi config set --secret codesec:token <token>`), " +
          "the environment variables CODESEC_BASE_URL and CODESEC_TOKEN, or a named connection " +
          `(\`connection: "org2"\` with ${stackCommands("org2")}).`,
      );
      expect(message(() => resolveConnection("org9", none, {}))).to.equal(
        "connection names no connection defined in stack config codesec:connections (none is defined). " +
          `Define it with ${stackCommands("<name>")}`,
      );
      const broken = lookup(
        { "codesec:connections": JSON.stringify({ org2: { baseUrl: "http://a" } }) },
        STACK_CONFIG,
      );
      expect(message(() => resolveConnection("org2", broken, {}))).to.equal(
        "codesec:connections.org2.token is required (a non-blank string): " +
          `set it with ${stackCommands("org2")}`,
      );
      const notObject = lookup({ "codesec:connections": "[1]" }, STACK_CONFIG);
      expect(message(() => resolveConnection("org2", notObject, {}))).to.equal(
        "stack config codesec:connections must be an object of named connections; set each one with " +
          stackCommands("<name>"),
      );
    });

    it("an explicit Provider's: its connections input, in the same places", () => {
      const origin = providerInputsOrigin("org2");
      const none = lookup({}, origin);
      expect(message(() => resolveConnection(undefined, none, {}))).to.equal(
        'pulumi-codesec: no credentials. Set them in one of three ways: the baseUrl and token inputs of provider "org2", ' +
          "the environment variables CODESEC_BASE_URL and CODESEC_TOKEN, or a named connection " +
          `(\`connection: "team2"\` with ${providerInput("team2")}).`,
      );
      expect(message(() => resolveConnection("team9", none, {}))).to.equal(
        'connection names no connection defined in the connections input of provider "org2" (none is defined). ' +
          `Define it with ${providerInput("<name>")}`,
      );
    });
  });

  describe("a connection argument that cannot be used: where connections and credentials are set, in the origin's words", () => {
    const message = (explicit: unknown, origin?: ConfigOrigin) => {
      const lookup = Object.assign(
        (key: string) => ({ "codesec:baseUrl": "http://a", "codesec:token": "t" })[key],
        {
          origin,
        },
      );
      try {
        resolveConnection(explicit, lookup, {});
      } catch (error) {
        expect(error).to.be.instanceOf(CodeSecConnectionError);
        return (error as Error).message;
      }
      throw new Error("expected an error");
    };

    // The dynamic provider's lookup has no origin; the default provider's is STACK_CONFIG: the same words.
    for (const origin of [undefined, STACK_CONFIG]) {
      it(`stack config (${origin === undefined ? "no origin" : "STACK_CONFIG"}): its keys, as before`, () => {
        expect(message("bad name!", origin)).to.equal(
          "connection must be the name of a connection under stack config codesec:connections (letters, digits, _ . -)",
        );
        expect(message({ baseUrl: "http://b" }, origin)).to.equal(
          "connection.token is required (a non-blank string): an explicit connection carries both of its fields, " +
            "and never takes codesec:token or CODESEC_TOKEN from elsewhere",
        );
        expect(message({ token: "t" }, origin)).to.equal(
          "connection.baseUrl is required (a non-blank string): an explicit connection carries both of its fields, " +
            "and never takes codesec:baseUrl or CODESEC_BASE_URL from elsewhere",
        );
        expect(message(42, origin)).to.equal(
          "connection must be a connection name from stack config codesec:connections, or (deprecated) an " +
            "object { baseUrl, token }, got number",
        );
      });
    }

    it("an explicit Provider's: its inputs, never a stack config key", () => {
      const origin = providerInputsOrigin("org2");
      expect(message("bad name!", origin)).to.equal(
        'connection must be the name of a connection under the connections input of provider "org2" ' +
          "(letters, digits, _ . -)",
      );
      expect(message({ baseUrl: "http://b" }, origin)).to.equal(
        "connection.token is required (a non-blank string): an explicit connection carries both of its fields, " +
          'and never takes provider "org2" (codesec.Provider resource inputs) token or CODESEC_TOKEN from elsewhere',
      );
      expect(message({ token: "t" }, origin)).to.equal(
        "connection.baseUrl is required (a non-blank string): an explicit connection carries both of its fields, " +
          'and never takes provider "org2" (codesec.Provider resource inputs) baseUrl or CODESEC_BASE_URL from elsewhere',
      );
      expect(message([], origin)).to.equal(
        'connection must be a connection name from the connections input of provider "org2", or (deprecated) ' +
          "an object { baseUrl, token }, got an array",
      );
    });
  });
});
