/**
 * The words the provider gives its clients for where their settings are set (the client's `settingNames`):
 * an explicit Provider's inputs, or, for the default provider, none (the client's stack config words).
 */
import { expect } from "chai";
import { clientFor, clientSettingsFrom } from "../../provider/clients";
import {
  providerInputsOrigin,
  resolveConnection,
  STACK_CONFIG,
  type ConfigLookup,
  type ConfigOrigin,
} from "../../provider/connection";
import { CodeSecApiError } from "../../client";
import { FakeServer, rejection } from "../support/fakeServer";

describe("provider clients: where a connection's settings are set, in the client's messages", () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await FakeServer.start();
    server.always({ status: 401, json: { message: "bad token" } });
  });
  afterEach(async () => server.close());

  /** The 401 message of a client for this configuration (each test a token of its own: one client each). */
  async function unauthorized(
    origin: ConfigOrigin,
    values: Record<string, string>,
    env: NodeJS.ProcessEnv = {},
  ): Promise<string> {
    const config: ConfigLookup = Object.assign((key: string) => values[key], { origin });
    const client = clientFor(resolveConnection(undefined, config, env), { retries: 0 });
    return (await rejection(client.getCurrentUser(), CodeSecApiError)).message;
  }

  it("a malformed setting's value is quoted with its bidirectional and C1 controls escaped", () => {
    const lookup = (values: Record<string, string>): ConfigLookup =>
      Object.assign((key: string) => values[key], { origin: STACK_CONFIG });
    expect(() => clientSettingsFrom(lookup({ "codesec:retries": "3\u202e" }))).to.throw('got "3\\u202e"');
    expect(() => clientSettingsFrom(lookup({ "codesec:allowInsecureHttp": "yes\u0085" }))).to.throw(
      'got "yes\\u0085"',
    );
  });

  it("an explicit Provider's name and a connection's name are quoted on one line, every control and bidirectional character escaped", () => {
    const origin = providerInputsOrigin("org\u202e2\n\u0085");
    expect(origin.label).to.equal('provider "org\\u202e2\\n\\u0085" (codesec.Provider resource inputs)');
    expect(origin.connectionSource("a\u2066b\r")).to.equal(
      'connection "a\\u2066b\\r" in the connections input of provider "org\\u202e2\\n\\u0085"',
    );
    expect(STACK_CONFIG.connectionSource("a\u2066b")).to.include('connection "a\\u2066b"');
  });

  it("an explicit Provider's inputs: the one input its token came from", async () => {
    const message = await unauthorized(providerInputsOrigin("org2"), {
      "codesec:baseUrl": server.baseUrl,
      "codesec:token": "tok_settingnames_inputs",
    });
    expect(message).to.include(`where this connection's token is set (the token input of provider "org2").`);
    expect(message).not.to.match(/stack config|codesec:|CODESEC_/);
  });

  it("an explicit Provider served by the environment: the variable its token came from", async () => {
    const message = await unauthorized(
      providerInputsOrigin("org2"),
      {},
      { CODESEC_BASE_URL: server.baseUrl, CODESEC_TOKEN: "tok_settingnames_env" },
    );
    expect(message).to.include("where this connection's token is set (CODESEC_TOKEN).");
    expect(message).not.to.match(/stack config|codesec:/);
  });

  it("a Provider whose name would make a phrase the client refuses: its input, without the name", async () => {
    const message = await unauthorized(providerInputsOrigin("p".repeat(300)), {
      "codesec:baseUrl": server.baseUrl,
      "codesec:token": "tok_settingnames_long",
    });
    expect(message).to.include(
      "where this connection's token is set (the token input of its codesec.Provider).",
    );
    expect(message).not.to.match(/stack config|codesec:/);
  });

  it("the default provider's stack config: the client's own words, unchanged", async () => {
    const message = await unauthorized(STACK_CONFIG, {
      "codesec:baseUrl": server.baseUrl,
      "codesec:token": "tok_settingnames_stack",
    });
    expect(message).to.include("codesec:connections.<name>.token, codesec:token, or CODESEC_TOKEN");
  });
});
