/**
 * The native plugin's ResourceProvider service in the test's process, called as the engine calls it
 * (a gRPC client on 127.0.0.1), against the emulator. What it proves: the plugin's own answers
 * (version, schema, configuration), that configuration problems fail CheckConfig with the dynamic
 * provider's words and no request, that check failures never quote a secret, that Diff's per-property
 * kinds follow each field's `onChange`, that a preview never writes, import and its refusals, the six
 * functions, secrets on the way out, the engine's timeout and Cancel.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { userRoleProvider } from "../support/dynamicProviders";
import { useEmulator, writes } from "../support/emulator";
import { configureStack } from "../support/stackConfig";
import {
  configure,
  Empty,
  props,
  provider,
  providerUrn,
  rejection,
  secret,
  struct,
  UNKNOWN_VALUE,
  urnOf,
  usePlugin,
} from "../support/nativePlugin";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import {
  inputsWhoseChange,
  isSecretValue,
  outputNames,
  secretFields,
  type ResourceDefinition,
} from "../../provider/resources/definition";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import { clientFor } from "../../provider/clients";
import { ProviderConfig } from "../../provider/providerConfig";
import { providerInputsOrigin, STACK_CONFIG } from "../../provider/connection";
import { ROTATION_ADVICE, rotationAdvice } from "../../provider/resources/staleCredentials";
import { toSchemaNames } from "../../provider/schemaNames";
import type { EmulatorHandle } from "../../emulator/index";

const repoRoot = path.resolve(__dirname, "../..");
const Kind = provider.PropertyDiff.Kind;
/** A secret-looking value no answer may quote. */
const MARK = "otc-SECRETMARK-Kx4Vm1Rc";

/** The emulator's requests to operations that change something, as `method path`. */
const writesOf = (h: EmulatorHandle) => writes(h, (r) => `${r.method} ${r.path}`);

/** The provider configuration of the emulator's sample organization. */
function emulatorConfig(h: EmulatorHandle): Record<string, unknown> {
  return { baseUrl: h.baseUrl, token: secret(h.apiToken) };
}

function checkRequest(kind: string, news: Record<string, unknown>): provider.CheckRequest {
  return new provider.CheckRequest()
    .setUrn(urnOf(kind))
    .setType(`codesec:index:${kind}`)
    .setNews(struct(news))
    .setOlds(struct({}));
}

function checkConfigRequest(news: Record<string, unknown>): provider.CheckRequest {
  return new provider.CheckRequest()
    .setUrn("urn:pulumi:test::codesec-test::pulumi:providers:codesec::default")
    .setType("pulumi:providers:codesec")
    .setNews(struct(news))
    .setOlds(struct({}));
}

function readRequest(
  kind: string,
  id: string,
  properties: Record<string, unknown> = {},
): provider.ReadRequest {
  return new provider.ReadRequest()
    .setId(id)
    .setUrn(urnOf(kind))
    .setType(`codesec:index:${kind}`)
    .setProperties(struct(properties));
}

/** An explicit Provider's message: no stack config key or command, which would not reach its inputs. */
function expectNoStackConfigAdvice(message: string): void {
  expect(message).not.to.include("pulumi config set");
  expect(message).not.to.include("stack config");
  for (const name of Object.keys(ProviderConfig.properties))
    expect(message).not.to.include(`codesec:${name}`);
}

/** Restores CODESEC_BASE_URL and CODESEC_TOKEN after each test; they start unset. */
function withoutCredentialEnv(): void {
  const saved = { base: process.env.CODESEC_BASE_URL, token: process.env.CODESEC_TOKEN };
  beforeEach(() => {
    delete process.env.CODESEC_BASE_URL;
    delete process.env.CODESEC_TOKEN;
  });
  afterEach(() => {
    for (const [key, value] of [
      ["CODESEC_BASE_URL", saved.base],
      ["CODESEC_TOKEN", saved.token],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

describe("native plugin: the ResourceProvider service", () => {
  const emulator = useEmulator();
  const plugin = usePlugin();
  withoutCredentialEnv();

  describe("the plugin's own answers", () => {
    it("GetPluginInfo answers the package's version, GetSchema the schema.json beside the launcher", async () => {
      const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
        version: string;
      };
      const info = await plugin().getPluginInfo(new Empty());
      expect(info.getVersion()).to.equal(manifest.version);
      const schema = await plugin().getSchema(new provider.GetSchemaRequest());
      expect(schema.getSchema()).to.equal(
        readFileSync(path.join(repoRoot, "provider/cmd/pulumi-resource-codesec/schema.json"), "utf8"),
      );
    });

    it("Configure accepts secrets and previews, from args or from the variables of an older engine", async () => {
      const h = emulator();
      const fromArgs = await plugin().configure(
        new provider.ConfigureRequest().setArgs(struct(emulatorConfig(h))).setAcceptsecrets(true),
      );
      expect([fromArgs.getAcceptsecrets(), fromArgs.getSupportspreview()]).to.deep.equal([true, true]);

      // Variables only: the configuration comes from `codesec:config:<name>`.
      const request = new provider.ConfigureRequest();
      request.getVariablesMap().set("codesec:config:baseUrl", h.baseUrl);
      request.getVariablesMap().set("codesec:config:token", h.apiToken);
      await plugin().configure(request);
      const user = await plugin().invoke(
        new provider.InvokeRequest().setTok("codesec:index:getCurrentUser").setArgs(struct({})),
      );
      expect(props(user.getReturn()).values.id).to.equal(h.sample.userId);
    });

    it("the environment's CODESEC_BASE_URL and CODESEC_TOKEN serve a provider configured with neither", async () => {
      const h = emulator();
      process.env.CODESEC_BASE_URL = h.baseUrl;
      process.env.CODESEC_TOKEN = h.apiToken;
      const checked = await plugin().checkConfig(checkConfigRequest({}));
      expect(checked.getFailuresList()).to.deep.equal([]);
      await configure(plugin(), {});
      const user = await plugin().invoke(
        new provider.InvokeRequest().setTok("codesec:index:getCurrentUser").setArgs(struct({})),
      );
      expect(props(user.getReturn()).values.id).to.equal(h.sample.userId);
    });
  });

  describe("CheckConfig: the dynamic provider's words, no request sent", () => {
    /** The dynamic provider's message for the same stack config (from a UserRole's check). */
    async function dynamicWords(config: Record<string, unknown>, connection?: string): Promise<string> {
      await configureStack(
        Object.fromEntries(Object.entries(config).map(([name, value]) => [`codesec:${name}`, value])),
      );
      try {
        // A problem of the resource's own connection is a failure; one of the stack's config throws.
        const checked = await userRoleProvider.check(
          {} as never,
          {
            deploymentId: "1001",
            userId: "501",
            role: "ORG_ROLE_ADMIN",
            ...(connection === undefined ? {} : { connection }),
          } as never,
        );
        if (checked.failures?.length === 1) return checked.failures[0].reason;
      } catch (error) {
        return (error as Error).message;
      } finally {
        await configureStack({});
      }
      throw new Error("the dynamic provider accepted the configuration");
    }

    /**
     * Name, configuration, the property the failure names (a non-secret top-level setting only), and the
     * connection a resource names to meet the problem with the dynamic provider (which checks a named
     * connection only when a resource names it; the plugin checks them all in CheckConfig).
     */
    const cases: [string, (h: EmulatorHandle) => Record<string, unknown>, string, string?][] = [
      ["no credentials anywhere", () => ({}), ""],
      ["a base URL without a token", (h) => ({ baseUrl: h.baseUrl }), ""],
      ["a blank token", (h) => ({ baseUrl: h.baseUrl, token: "   " }), ""],
      // A base URL is never named: the engine would print its value, which may hold a credential.
      ["a token without a base URL", (h) => ({ token: h.apiToken }), ""],
      ["a base URL that is not one", (h) => ({ baseUrl: "ftp://codesec.example", token: h.apiToken }), ""],
      [
        "a base URL with credentials in it",
        (h) => ({ baseUrl: "http://user:s3cr3tpass@127.0.0.1:1", token: h.apiToken }),
        "",
      ],
      [
        "a base URL with a query",
        (h) => ({ baseUrl: "https://codesec.example.com/?token=s3cr3tpass", token: h.apiToken }),
        "",
      ],
      [
        "a base URL of plain http to another machine",
        (h) => ({ baseUrl: "http://codesec.example.com", token: h.apiToken }),
        "",
      ],
      [
        "allowInsecureHttp that is no boolean",
        (h) => ({ ...emulatorConfig(h), allowInsecureHttp: "yes" }),
        "allowInsecureHttp",
      ],
      ["a timeout that is no number", (h) => ({ ...emulatorConfig(h), timeoutMs: "soon" }), "timeoutMs"],
      ["retries out of range", (h) => ({ ...emulatorConfig(h), retries: "99" }), "retries"],
      [
        "skipCredentialsValidation that is no boolean",
        (h) => ({ ...emulatorConfig(h), skipCredentialsValidation: "maybe" }),
        "skipCredentialsValidation",
      ],
      ["connections that are no object", (h) => ({ ...emulatorConfig(h), connections: "[1]" }), "", "org2"],
      [
        "a named connection without its token",
        (h) => ({ ...emulatorConfig(h), connections: JSON.stringify({ org2: { baseUrl: h.baseUrl } }) }),
        "",
        "org2",
      ],
    ];

    for (const [name, configOf, property, connection] of cases) {
      it(`${name}: one failure${property ? ` naming ${property}` : " naming no property"}`, async () => {
        const h = emulator();
        const config = configOf(h);
        const plain = props(struct(config)).values;
        const expected = await dynamicWords(plain, connection);
        h.control.clearRequests();
        const response = await plugin().checkConfig(checkConfigRequest(config));
        const failures = response.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
        expect(failures).to.deep.equal([[property, expected]]);
        expect(JSON.stringify(failures)).not.to.include(h.apiToken);
        expect(JSON.stringify(failures)).not.to.include("s3cr3tpass");
        expect(h.control.requests()).to.deep.equal([]);
      });
    }

    it("a good configuration passes, its credentials stored as secrets, and no request is sent", async () => {
      const h = emulator();
      const response = await plugin().checkConfig(
        checkConfigRequest({
          baseUrl: h.baseUrl,
          token: h.apiToken,
          connections: JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
          timeoutMs: "5000",
        }),
      );
      expect(response.getFailuresList()).to.deep.equal([]);
      const inputs = props(response.getInputs());
      expect([...inputs.secrets].sort()).to.deep.equal(["connections", "token"]);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("plain http passes to this machine, and to another one only with allowInsecureHttp", async () => {
      const h = emulator();
      const failures = async (config: Record<string, unknown>) =>
        (await plugin().checkConfig(checkConfigRequest(config))).getFailuresList().map((f) => f.getReason());
      for (const baseUrl of ["http://localhost:1", "http://127.3.2.1:1", "http://[::1]:1", h.baseUrl]) {
        expect(await failures({ baseUrl, token: h.apiToken }), baseUrl).to.deep.equal([]);
      }
      const remote = { baseUrl: "http://codesec.example.com", token: h.apiToken };
      for (const allowInsecureHttp of ["true", true]) {
        expect(await failures({ ...remote, allowInsecureHttp })).to.deep.equal([]);
      }
      expect(await failures({ ...remote, allowInsecureHttp: "false" })).to.have.length(1);
      expect(
        await failures({
          ...emulatorConfig(h),
          connections: JSON.stringify({ org2: { baseUrl: "http://org2.example.com", token: h.apiToken } }),
        }),
      )
        .to.have.length(1)
        .and.to.have.nested.property("[0]")
        .that.includes('codesec:connections.org2.baseUrl: baseUrl "http://org2.example.com" is plain http');
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a value not known until apply is checked then", async () => {
      const h = emulator();
      const response = await plugin().checkConfig(
        checkConfigRequest({ baseUrl: h.baseUrl, token: UNKNOWN_VALUE }),
      );
      expect(response.getFailuresList()).to.deep.equal([]);
    });

    it("a known blank or malformed value fails even when its sibling is not known until apply", async () => {
      const h = emulator();
      const reasons = async (config: Record<string, unknown>) =>
        (await plugin().checkConfig(checkConfigRequest(config))).getFailuresList().map((f) => f.getReason());
      expect(await reasons({ baseUrl: UNKNOWN_VALUE, token: "" })).to.have.length(1);
      expect((await reasons({ baseUrl: UNKNOWN_VALUE, token: "  " }))[0]).to.include("codesec:token");
      const malformed = await reasons({ baseUrl: "ftp://nowhere", token: UNKNOWN_VALUE });
      expect(malformed).to.have.length(1);
      expect(malformed[0]).to.include("codesec:baseUrl");
      expect(await reasons({ baseUrl: UNKNOWN_VALUE, token: h.apiToken })).to.deep.equal([]);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("DiffConfig lists the keys whose value changed; the same value in another form is no change", async () => {
      const olds = { baseUrl: "http://a.example", token: "t1", timeoutMs: "5000" };
      const same = await plugin().diffConfig(
        new provider.DiffRequest()
          .setOlds(struct(olds))
          .setOldInputs(struct(olds))
          .setNews(struct({ ...olds, timeoutMs: 5000 })),
      );
      expect(same.getChanges()).to.equal(provider.DiffResponse.DiffChanges.DIFF_NONE);
      const changed = await plugin().diffConfig(
        new provider.DiffRequest()
          .setOlds(struct(olds))
          .setOldInputs(struct(olds))
          .setNews(struct({ baseUrl: "http://b.example", token: "t1", retries: "2" })),
      );
      expect(changed.getChanges()).to.equal(provider.DiffResponse.DiffChanges.DIFF_SOME);
      const kinds = Object.fromEntries(
        [...changed.getDetaileddiffMap().entries()].map(([name, diff]) => [name, diff.getKind()]),
      );
      expect(kinds).to.deep.equal({ baseUrl: Kind.UPDATE, timeoutMs: Kind.DELETE, retries: Kind.ADD });
      expect(changed.getReplacesList()).to.deep.equal([]);
    });
  });

  describe("Check", () => {
    it("valid inputs pass, proving the credentials with one read and no write", async () => {
      const h = emulator();
      // A token of its own: the credential check is made once per connection per process.
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: h.sample.userId,
        kind: "apiToken",
      });
      await configure(plugin(), { baseUrl: h.baseUrl, token: secret(credential) });
      const response = await plugin().check(
        checkRequest("UserRole", { deploymentId: h.deploymentId, userId: "502", role: "ORG_ROLE_MEMBER" }),
      );
      expect(response.getFailuresList()).to.deep.equal([]);
      expect(h.control.requests().map((r) => `${r.method} ${r.operation}`)).to.deep.equal([
        "GET getCurrentUser",
      ]);
    });

    it("a connection name the configuration does not define fails with the dynamic provider's words", async () => {
      const h = emulator();
      const config = { ...emulatorConfig(h), connections: JSON.stringify({ org2: emulatorConfig(h) }) };
      const inputs = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER", connection: "org9" };
      await configureStack({
        "codesec:baseUrl": h.baseUrl,
        "codesec:token": h.apiToken,
        "codesec:connections": JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const dynamic = await userRoleProvider.check({} as never, inputs as never);
      await configureStack({});
      await configure(plugin(), {
        ...config,
        connections: JSON.stringify({ org2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const response = await plugin().check(checkRequest("UserRole", inputs));
      expect(response.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).to.deep.equal(
        (dynamic.failures ?? []).map((f) => [f.property, f.reason]),
      );
      expect(response.getFailuresList()).to.have.length(1);
      expect(h.control.requests()).to.deep.equal([]);
    });

    for (const kind of RESOURCE_KIND_NAMES) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      for (const field of secretFields(definition).filter((name) => name in definition.inputs)) {
        const bad: [string, unknown][] = [
          [field, [MARK]],
          [field, { [field]: MARK, extra: MARK }],
          [`${field}s`, MARK],
          [field[0].toUpperCase() + field.slice(1), MARK],
        ];
        for (const [key, value] of bad) {
          it(`${kind}: ${key} = ${JSON.stringify(value)} fails without quoting it or naming it`, async () => {
            const h = emulator();
            await configure(plugin(), emulatorConfig(h));
            const response = await plugin().check(
              checkRequest(kind, { deploymentId: "1001", [key]: secret(value) }),
            );
            const failures = response.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
            expect(failures.length).to.be.greaterThan(0);
            expect(JSON.stringify(failures)).not.to.include("SECRETMARK");
            expect(failures.map(([property]) => property)).not.to.include(key);
            expect(h.control.requests()).to.deep.equal([]);
          });
        }
      }
    }
  });

  describe("credential messages name where the configuration comes from", () => {
    const userRole = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };
    /**
     * A token the platform does not know (its shape is good, so only the credential check refuses it); one
     * per test, as the check is made once per connection per process.
     */
    const unknownToken = (test: string) => `cst_1001_admin_${test}00000000`;

    async function checkReason(h: EmulatorHandle, config: Record<string, unknown>, name: string) {
      await configure(plugin(), config, name);
      const error = await rejection(plugin().check(checkRequest("UserRole", userRole)));
      h.control.clearRequests();
      return error.details;
    }

    it("an explicit Provider resource's refused credentials: its inputs, the token's and the switch's, set on it", async () => {
      const h = emulator();
      const token = unknownToken("explicit");
      const reason = await checkReason(h, { baseUrl: h.baseUrl, token: secret(token) }, "org2");
      expect(reason).to.include(
        `could not use the credentials from the baseUrl and token inputs of provider "org2" at ${h.baseUrl}`,
      );
      expect(reason).to.include("HTTP 401");
      // The client's 401 advice, in the Provider's words: the one setting the token came from.
      expect(reason).to.include(`where this connection's token is set (the token input of provider "org2")`);
      expect(reason).to.match(
        /To preview without contacting the platform \(an air-gapped preview\), set the skipCredentialsValidation input of provider "org2" \(`skipCredentialsValidation: true`\)\.$/,
      );
      expectNoStackConfigAdvice(reason);
      expect(reason).not.to.include(token);

      // A named connection of the Provider's: that connection in its connections input.
      const named = unknownToken("explicitnamed");
      await configure(
        plugin(),
        { connections: secret(JSON.stringify({ team2: { baseUrl: h.baseUrl, token: named } })) },
        "org2",
      );
      const error = { details: await connectionFailure({ ...userRole, connection: "team2" }) };
      expect(error.details).to.include(
        `could not use the credentials from connection "team2" in the connections input of provider "org2" at`,
      );
      expect(error.details).to.include(
        `where this connection's token is set (the connections.team2.token input of provider "org2")`,
      );
      expectNoStackConfigAdvice(error.details);
      expect(error.details).not.to.include(named);
    });

    it("the default provider's credentials are named as the stack config keys, and the switch as one", async () => {
      const h = emulator();
      const reason = await checkReason(
        h,
        { baseUrl: h.baseUrl, token: secret(unknownToken("default")) },
        "default_0_5_0",
      );
      expect(reason).to.include(
        "could not use the credentials from stack config (codesec:baseUrl and codesec:token) at",
      );
      expect(reason).to.include("codesec:connections.<name>.token, codesec:token, or CODESEC_TOKEN");
      expect(reason).to.include("run `pulumi config set codesec:skipCredentialsValidation true`.");
    });

    /** The one failure of a resource's Check (its `connection` input's, which may hold a token: unnamed). */
    async function connectionFailure(inputs: Record<string, unknown>): Promise<string> {
      const response = await plugin().check(checkRequest("UserRole", inputs));
      const failures = response.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
      expect(failures).to.have.length(1);
      return failures[0][1];
    }

    /** CheckConfig's failures, as [property, reason], of the provider with this name and configuration. */
    async function checkConfigReasons(name: string, config: Record<string, unknown>) {
      const response = await plugin().checkConfig(
        new provider.CheckRequest()
          .setUrn(providerUrn(name))
          .setName(name)
          .setType("pulumi:providers:codesec")
          .setNews(struct(config))
          .setOlds(struct({})),
      );
      return response.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    }

    /**
     * Each setting's problem, and the words an explicit Provider's message and the default one's must have.
     */
    const settingProblems = (h: EmulatorHandle) => [
      {
        config: {},
        explicit: [
          'Set them in one of three ways: the baseUrl and token inputs of provider "org2", the environment ' +
            'variables CODESEC_BASE_URL and CODESEC_TOKEN, or a named connection (`connection: "team2"` with ' +
            'the connections input of provider "org2", an object of named connections (`connections: { "team2": ' +
            '{ baseUrl: "<url>", token: <secret token> } }`)).',
        ],
        byDefault: ["stack config (`pulumi config set codesec:baseUrl <url>`"],
      },
      {
        config: { baseUrl: h.baseUrl, token: h.apiToken, timeoutMs: 0 },
        explicit: ['provider "org2" (codesec.Provider resource inputs) timeoutMs: timeoutMs must be'],
        byDefault: ["codesec:timeoutMs: timeoutMs must be"],
      },
      {
        config: { baseUrl: h.baseUrl, token: h.apiToken, timeoutMs: "soon" },
        explicit: [
          'provider "org2" (codesec.Provider resource inputs) timeoutMs must be a number of milliseconds',
          'set the timeoutMs input of provider "org2" (`timeoutMs: <number>`)',
        ],
        byDefault: [
          "stack config codesec:timeoutMs must be a number",
          "`pulumi config set codesec:timeoutMs <number>`",
        ],
      },
      {
        config: { baseUrl: h.baseUrl, token: h.apiToken, skipCredentialsValidation: "maybe" },
        explicit: [
          'provider "org2" (codesec.Provider resource inputs) skipCredentialsValidation must be true or false',
        ],
        byDefault: ["stack config codesec:skipCredentialsValidation must be true or false"],
      },
      {
        config: { baseUrl: h.baseUrl, token: h.apiToken, connections: "[1]" },
        explicit: [
          'the connections input of provider "org2" must be an object of named connections; set each one with ' +
            'the connections input of provider "org2"',
        ],
        byDefault: [
          "stack config codesec:connections must be an object of named connections",
          "pulumi config set --path codesec:connections.<name>.baseUrl <url>",
        ],
      },
      {
        config: { connections: JSON.stringify({ team2: { baseUrl: h.baseUrl } }) },
        explicit: [
          'provider "org2" (codesec.Provider resource inputs) connections.team2.token is required',
          '`connections: { "team2": { baseUrl: "<url>", token: <secret token> } }`',
        ],
        byDefault: [
          "codesec:connections.team2.token is required",
          "pulumi config set --secret --path codesec:connections.team2.token <token>",
        ],
      },
      {
        config: { baseUrl: "http://codesec.example.com", token: h.apiToken },
        explicit: [
          'provider "org2" (codesec.Provider resource inputs) baseUrl: baseUrl "http://codesec.example.com" is plain http',
          'with allowInsecureHttp set to true (the allowInsecureHttp input of provider "org2")',
        ],
        byDefault: [
          'codesec:baseUrl: baseUrl "http://codesec.example.com" is plain http to another machine',
          "with allowInsecureHttp set to true (client option allowInsecureHttp, stack config codesec:allowInsecureHttp)",
        ],
      },
      {
        config: { baseUrl: h.baseUrl, token: h.apiToken, movedFrom: "ftp://nowhere" },
        explicit: [
          'provider "org2" (codesec.Provider resource inputs) movedFrom: baseUrl must be an http(s) URL',
        ],
        byDefault: ["stack config codesec:movedFrom: baseUrl must be an http(s) URL"],
      },
    ];

    it("every CheckConfig failure of an explicit Provider names its input and how to set it on the Provider", async () => {
      const h = emulator();
      for (const problem of settingProblems(h)) {
        const failures = await checkConfigReasons("org2", problem.config);
        const context = JSON.stringify(problem.config);
        expect(failures, context).to.have.length(1);
        for (const words of problem.explicit) expect(failures[0][1], context).to.include(words);
        expectNoStackConfigAdvice(failures[0][1]);
      }
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("the same failures of the default provider keep the stack config keys and commands", async () => {
      const h = emulator();
      for (const problem of settingProblems(h)) {
        const failures = await checkConfigReasons("default_0_5_0", problem.config);
        const context = JSON.stringify(problem.config);
        expect(failures, context).to.have.length(1);
        for (const words of problem.byDefault) expect(failures[0][1], context).to.include(words);
        expect(failures[0][1], context).not.to.include("codesec.Provider");
      }
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a resource naming a connection an explicit Provider does not define: its connections input, set on it", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h), "org2");
      const error = { details: await connectionFailure({ ...userRole, connection: "team9" }) };
      expect(error.details).to.include(
        'connection names no connection defined in the connections input of provider "org2" (none is defined). ' +
          'Define it with the connections input of provider "org2"',
      );
      expectNoStackConfigAdvice(error.details);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a resource's connection an explicit Provider cannot use (a bad name, an incomplete object, no name or object): its words, not stack config's", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h), "org2");
      const cases: [unknown, string][] = [
        [
          "bad name!",
          'connection must be the name of a connection under the connections input of provider "org2" ' +
            "(letters, digits, _ . -)",
        ],
        [
          { baseUrl: h.baseUrl },
          "connection.token is required (a non-blank string): an explicit connection carries both of its " +
            'fields, and never takes provider "org2" (codesec.Provider resource inputs) token or CODESEC_TOKEN from elsewhere',
        ],
        [
          42,
          'connection must be a connection name from the connections input of provider "org2", or ' +
            "(deprecated) an object { baseUrl, token }, got number",
        ],
      ];
      for (const [connection, words] of cases) {
        const reason = await connectionFailure({ ...userRole, connection });
        expect(reason, JSON.stringify(connection)).to.include(words);
        expectNoStackConfigAdvice(reason);
      }
      expect(h.control.requests()).to.deep.equal([]);
    });

    for (const [providerName, origin] of [
      ["org2", providerInputsOrigin("org2")],
      ["default_0_5_0", STACK_CONFIG],
    ] as const) {
      it(`a refresh's 401 under provider ${providerName}: the token-rotation advice names where its token is set`, async () => {
        const h = emulator();
        const token = unknownToken(`rotated${providerName.replace(/\W/g, "")}`);
        const config = { baseUrl: h.baseUrl, token: secret(token), skipCredentialsValidation: "true" };
        await configure(plugin(), config, providerName);
        const error = await rejection(
          plugin().read(readRequest("UserRole", "1001/502", { ...userRole, platform: h.baseUrl })),
        );
        expect(error.details).to.include("HTTP 401");
        // The default provider's advice is the dynamic provider's, word for word.
        const advice = origin === STACK_CONFIG ? ROTATION_ADVICE : rotationAdvice(origin);
        expect(error.details.split(advice)).to.have.length(2);
        expect(advice.startsWith(`If the token was rotated in ${origin.label}: `)).to.equal(true);
        if (providerName === "org2") expectNoStackConfigAdvice(error.details);
        expect(error.details).not.to.include(token);
      });

      it(`a refresh's 401 under provider ${providerName} with a token from one of its named connections: its advice`, async () => {
        const h = emulator();
        const token = unknownToken(`named${providerName.replace(/\W/g, "")}`);
        const connections = JSON.stringify({ team2: { baseUrl: h.baseUrl, token } });
        await configure(
          plugin(),
          { connections: secret(connections), skipCredentialsValidation: "true" },
          providerName,
        );
        const error = await rejection(
          plugin().read(
            readRequest("UserRole", "1001/502", { ...userRole, connection: "team2", platform: h.baseUrl }),
          ),
        );
        expect(error.details).to.include("HTTP 401");
        expect(error.details.split(rotationAdvice(origin))).to.have.length(2);
        expect(error.details).not.to.include(token);
      });

      // The repro: no token in the provider's configuration, a bad CODESEC_TOKEN. The environment is read by
      // the plugin itself and is always current (docs/credentials.md), and a connection object's token
      // reaches the state only with the resource's next update: `pulumi up` records neither, so the advice
      // to run it would be wrong.
      for (const [source, connectionOf] of [
        ["CODESEC_TOKEN", () => undefined],
        [
          "a deprecated connection object",
          (h: EmulatorHandle, token: string) => ({ baseUrl: h.baseUrl, token: secret(token) }),
        ],
      ] as const) {
        it(`a refresh's 401 under provider ${providerName} with a token from ${source}: no rotation advice`, async () => {
          const h = emulator();
          const token = unknownToken(`env${providerName.replace(/\W/g, "")}${source.length}`);
          const connection = connectionOf(h, token);
          if (connection === undefined) {
            process.env.CODESEC_BASE_URL = h.baseUrl;
            process.env.CODESEC_TOKEN = token;
          }
          await configure(plugin(), { skipCredentialsValidation: "true" }, providerName);
          const error = await rejection(
            plugin().read(
              readRequest("UserRole", "1001/502", {
                ...userRole,
                ...(connection === undefined ? {} : { connection }),
                platform: h.baseUrl,
              }),
            ),
          );
          expect(error.details).to.include("HTTP 401");
          expect(error.details).not.to.include("If the token was rotated");
          expect(error.details).not.to.include("pulumi up");
          expect(error.details).not.to.include(token);
        });
      }
    }

    it("a Provider named defaultOrg, configured (not only checked): its connections input, not stack config", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h), "defaultOrg");
      const reason = await connectionFailure({ ...userRole, connection: "team9" });
      expect(reason).to.include(
        'connection names no connection defined in the connections input of provider "defaultOrg" ' +
          '(none is defined). Define it with the connections input of provider "defaultOrg"',
      );
      expectNoStackConfigAdvice(reason);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("CheckConfig of an explicit Provider names its inputs; of the default provider, the stack config keys", async () => {
      const h = emulator();
      const reasons = checkConfigReasons;
      // A Provider whose name merely starts with "default" is still the user's: its inputs.
      for (const name of ["org2", "defaultOrg"]) {
        const label = `provider "${name}" (codesec.Provider resource inputs)`;
        const explicit = await reasons(name, { baseUrl: h.baseUrl });
        expect(explicit, name).to.have.length(1);
        const missing = `${label} sets baseUrl but not token: `;
        expect(explicit[0][1].slice(0, missing.length), name).to.equal(missing);
        expectNoStackConfigAdvice(explicit[0][1]);
        const badUrl = await reasons(name, { baseUrl: "ftp://nowhere", token: h.apiToken });
        // No property: the engine would print the base URL's value beside it.
        expect(
          badUrl.map(([property]) => property),
          name,
        ).to.deep.equal([""]);
        expect(badUrl[0][1].slice(0, `${label} baseUrl: `.length), name).to.equal(`${label} baseUrl: `);
      }
      // The engine's names of the default provider: without a version, with one, with a pluginDownloadURL.
      for (const name of [
        "default",
        "default_0_5_0",
        "default_0_5_0_alpha_1",
        "default_0_5_0_pulumi.com/pkg",
      ]) {
        const byDefault = await reasons(name, { baseUrl: h.baseUrl });
        expect(byDefault[0][1], name).to.match(/^stack config sets codesec:baseUrl but not codesec:token: /);
      }
      expect(h.control.requests()).to.deep.equal([]);
    });

    /**
     * The client's own advice on a failure of the credential check (`getCurrentUser`), each with the settings
     * that produce it, and the words naming where to change them: an explicit Provider's inputs, or the
     * default provider's stack config keys. Faults come before authentication, so the token only needs a
     * good shape; each case has its own (one check per connection per process).
     */
    const clientFailures = (h: EmulatorHandle, redirector: string) => [
      {
        what: "a timeout",
        config: { timeoutMs: "200", retries: "0" },
        fault: { operation: "getCurrentUser" as const, latencyMs: 3000 },
        explicit: ['raise timeoutMs (the timeoutMs input of provider "org2")'],
        byDefault: ["raise timeoutMs (stack config codesec:timeoutMs)"],
      },
      {
        what: "the call's deadline",
        config: { timeoutMs: "200", deadlineMs: "300", retries: "3" },
        fault: { operation: "getCurrentUser" as const, latencyMs: 3000, count: 4 },
        explicit: ['(deadlineMs 300 ms, the deadlineMs input of provider "org2")'],
        byDefault: ["(deadlineMs 300 ms, stack config codesec:deadlineMs)"],
      },
      {
        what: "a Retry-After above maxRetryDelayMs",
        config: { maxRetryDelayMs: "1000" },
        fault: { operation: "getCurrentUser" as const, status: 503, retryAfter: "60" },
        explicit: ['raise the cap: the maxRetryDelayMs input of provider "org2".'],
        byDefault: ["raise the cap: client option maxRetryDelayMs, stack config codesec:maxRetryDelayMs."],
      },
      {
        what: "a redirect",
        config: { baseUrl: redirector, retries: "0" },
        explicit: ['Set the base URL (the baseUrl input of provider "org2") to the platform'],
        byDefault: ["Set the base URL (codesec:baseUrl / CODESEC_BASE_URL) to the platform"],
      },
      {
        what: "a 404 under a base URL with a path",
        config: { baseUrl: `${h.baseUrl}/platform`, retries: "0" },
        explicit: ['drop it from the base URL (the baseUrl input of provider "org2")'],
        byDefault: ["drop it from the base URL (codesec:baseUrl / CODESEC_BASE_URL)"],
      },
      {
        what: "an unreachable platform",
        config: { baseUrl: "http://127.0.0.1:9", retries: "0" },
        explicit: ['Check the base URL (the baseUrl input of provider "org2") and that the platform'],
        byDefault: ["Check the base URL (codesec:baseUrl / CODESEC_BASE_URL) and that the platform"],
      },
    ];

    /** A server that answers every request with a redirect elsewhere (as a misconfigured proxy would). */
    let redirector: http.Server | undefined;
    let redirectorUrl = "";
    before(async () => {
      const server = http.createServer((_request, response) => {
        response.writeHead(302, { location: "https://elsewhere.example/api" }).end();
      });
      redirector = server;
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      redirectorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      redirector?.closeAllConnections();
      await new Promise((resolve) => redirector?.close(resolve));
    });

    for (const [who, providerName] of [
      ["an explicit Provider's", "org2"],
      ["the default provider's", "default_0_5_0"],
    ] as const) {
      it(`${who} client failures (timeout, deadline, Retry-After cap, redirect, 404, network) name ${
        providerName === "org2" ? "its inputs, never stack config" : "the stack config keys"
      }`, async () => {
        const h = emulator();
        for (const [index, failure] of clientFailures(h, redirectorUrl).entries()) {
          if (failure.fault) h.control.addFault(failure.fault);
          const token = unknownToken(`${providerName.replace(/_/g, "")}${index}`);
          const reason = await checkReason(
            h,
            { baseUrl: h.baseUrl, token: secret(token), ...failure.config },
            providerName,
          );
          h.control.clearFaults();
          for (const words of providerName === "org2" ? failure.explicit : failure.byDefault)
            expect(reason, failure.what).to.include(words);
          if (providerName === "org2") {
            expectNoStackConfigAdvice(reason);
            expect(reason, failure.what).not.to.match(/codesec:(?!index:)/);
            expect(reason, failure.what).not.to.include("CODESEC_");
            expect(reason, failure.what).not.to.include("client option");
          }
          expect(reason, failure.what).not.to.include(token);
        }
      });
    }

    for (const [providerName, words] of [
      [
        "org2",
        `end by their deadline (the deadlineMs input of provider "org2" or the resource's customTimeouts)`,
      ],
      [
        "default_0_5_0",
        "end by their deadline (stack config codesec:deadlineMs or the resource's customTimeouts)",
      ],
    ] as const) {
      it(`after Cancel, the refusal names the deadline where provider ${providerName} sets it`, async () => {
        const h = emulator();
        await configure(plugin(), emulatorConfig(h), providerName);
        await plugin().cancel(new Empty());
        const error = await rejection(
          plugin().invoke(
            new provider.InvokeRequest().setTok("codesec:index:getCurrentUser").setArgs(struct({})),
          ),
        );
        expect(error.code).to.equal(grpc.status.CANCELLED);
        expect(error.details).to.include(words);
        if (providerName === "org2") expectNoStackConfigAdvice(error.details);
      });
    }
  });

  describe("a token's whitespace: one rule for the plugin, the dynamic provider and the client", () => {
    const userRole = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };

    it("whitespace inside a token is refused at CheckConfig and Check by both providers, saying what to do", async () => {
      const h = emulator();
      // The emulator's own token with a space inside: a request would be a 401; nothing is sent.
      const token = `${h.apiToken.slice(0, 8)} ${h.apiToken.slice(8)}`;
      const expected =
        "codesec:token: token must contain only printable ASCII characters, with no whitespace or control " +
        "character inside it (whitespace around it, such as a file's trailing newline, is dropped): set it " +
        "again exactly as the platform issued it";
      const dynamic = await dynamicCheckError({ "codesec:baseUrl": h.baseUrl, "codesec:token": token });
      expect(dynamic).to.equal(expected);
      const checked = await plugin().checkConfig(checkConfigRequest({ baseUrl: h.baseUrl, token }));
      expect(checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).to.deep.equal([
        ["", expected],
      ]);
      await configure(plugin(), { baseUrl: h.baseUrl, token: secret(token) }, "org2");
      const error = await rejection(plugin().check(checkRequest("UserRole", userRole)));
      expect(error.details).to.equal(
        expected.replace("codesec:token:", 'provider "org2" (codesec.Provider resource inputs) token:'),
      );
      for (const text of [dynamic, ...checked.getFailuresList().map((f) => f.getReason()), error.details]) {
        expect(text).not.to.include(h.apiToken.slice(8));
      }
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("whitespace around a token (a file's trailing newline) is dropped by both providers: the token works", async () => {
      const h = emulator();
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: h.sample.userId,
        kind: "apiToken",
      });
      for (const token of [`${credential}\n`, ` ${credential}\r\n`]) {
        expect(await dynamicCheckError({ "codesec:baseUrl": h.baseUrl, "codesec:token": token })).to.equal(
          undefined,
        );
        const checked = await plugin().checkConfig(checkConfigRequest({ baseUrl: h.baseUrl, token }));
        expect(checked.getFailuresList()).to.deep.equal([]);
      }
      await configure(plugin(), { baseUrl: h.baseUrl, token: secret(`${credential}\n`) }, "org2");
      const response = await plugin().check(checkRequest("UserRole", userRole));
      expect(response.getFailuresList()).to.deep.equal([]);
      const reads = h.control.requests().map((r) => `${r.method} ${r.operation} ${r.status}`);
      expect(reads).to.include("GET getCurrentUser 200");
      expect(reads.filter((r) => !r.endsWith(" 200"))).to.deep.equal([]);
    });

    /** The dynamic provider's refusal of a UserRole's check under this stack config, if any. */
    async function dynamicCheckError(config: Record<string, string>): Promise<string | undefined> {
      await configureStack(config);
      try {
        const checked = await userRoleProvider.check({} as never, userRole as never);
        return checked.failures?.[0]?.reason;
      } catch (error) {
        return (error as Error).message;
      } finally {
        await configureStack({});
      }
    }
  });

  describe("Diff: per-property kinds from each field's onChange", () => {
    const SAME_PLATFORM = (h: EmulatorHandle) => ({
      ...emulatorConfig(h),
      connections: JSON.stringify({
        a: { baseUrl: h.baseUrl, token: h.apiToken },
        b: { baseUrl: h.baseUrl, token: h.apiToken },
      }),
    });
    const changes: [string, unknown, unknown][] = [
      ["update", "a", "b"],
      ["add", undefined, "b"],
      ["delete", "a", undefined],
    ];

    for (const kind of RESOURCE_KIND_NAMES) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      for (const [name, field] of Object.entries(definition.inputs)) {
        for (const [change, before, after] of changes) {
          const replace = field.onChange === "replace";
          const expected =
            field.onChange === "never"
              ? undefined
              : {
                  update: replace ? Kind.UPDATE_REPLACE : Kind.UPDATE,
                  add: replace ? Kind.ADD_REPLACE : Kind.ADD,
                  delete: replace ? Kind.DELETE_REPLACE : Kind.DELETE,
                }[change];
          it(`${kind}.${name} (${field.onChange}), ${change}: ${expected === undefined ? "no diff" : Kind[expected as never]}`, async () => {
            const h = emulator();
            await configure(plugin(), SAME_PLATFORM(h));
            const olds: Record<string, unknown> = { platform: h.baseUrl };
            const news: Record<string, unknown> = {};
            if (before !== undefined) olds[name] = before;
            if (after !== undefined) news[name] = after;
            const response = await plugin().diff(
              new provider.DiffRequest()
                .setId("1001/x")
                .setUrn(urnOf(kind))
                .setType(`codesec:index:${kind}`)
                .setOlds(struct(olds))
                .setOldInputs(struct(olds))
                .setNews(struct(news)),
            );
            const detailed = Object.fromEntries(
              [...response.getDetaileddiffMap().entries()].map(([key, diff]) => [key, diff.getKind()]),
            );
            expect(response.getHasdetaileddiff()).to.equal(true);
            expect(detailed[name]).to.equal(expected);
            expect(response.getReplacesList().includes(name)).to.equal(expected !== undefined && replace);
            expect(response.getDeletebeforereplace()).to.equal(
              replace && expected !== undefined && definition.deleteBeforeReplace === true,
            );
            expect(response.getStablesList()).to.deep.equal(
              inputsWhoseChange(definition, "replace").filter((stable) => stable !== name || !replace),
            );
            expect(h.control.requests()).to.deep.equal([]);
          });
        }
      }
    }

    it("no change answers DIFF_NONE; a state the dynamic provider wrote asks for one update", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const inputs = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };
      const diff = (olds: Record<string, unknown>) =>
        plugin().diff(
          new provider.DiffRequest()
            .setId("1001/502")
            .setUrn(urnOf("UserRole"))
            .setType("codesec:index:UserRole")
            .setOlds(struct(olds))
            .setNews(struct(inputs)),
        );
      expect((await diff({ ...inputs, platform: h.baseUrl })).getChanges()).to.equal(
        provider.DiffResponse.DiffChanges.DIFF_NONE,
      );
      const fromDynamic = await diff({ ...inputs, platform: h.baseUrl, __provider: "stub" });
      expect(fromDynamic.getChanges()).to.equal(provider.DiffResponse.DiffChanges.DIFF_SOME);
      expect(fromDynamic.getReplacesList()).to.deep.equal([]);
    });
  });

  describe("a resource on another platform than its provider's: the settings the message names", () => {
    /** A platform the resources were created on; nobody listens there (Diff makes no call). */
    const recorded = "http://127.0.0.1:1";
    const inputs = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };

    async function configureAs(name: string, config: Record<string, unknown>): Promise<void> {
      await plugin().configure(
        new provider.ConfigureRequest()
          .setArgs(struct(config))
          .setAcceptsecrets(true)
          .setType("pulumi:providers:codesec")
          .setName(name)
          .setUrn(`urn:pulumi:test::codesec-test::pulumi:providers:codesec::${name}`),
      );
    }

    function diff(olds: Record<string, unknown> = { ...inputs, platform: recorded }) {
      return plugin().diff(
        new provider.DiffRequest()
          .setId("1001/502")
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setOlds(struct(olds))
          .setNews(struct(inputs)),
      );
    }

    it("an explicit Provider's: its inputs, and its movedFrom to move on purpose (not stack config)", async () => {
      const h = emulator();
      await configureAs("org2", emulatorConfig(h));
      const error = await rejection(diff());
      expect(error.details).to.include(
        `was created on the platform at ${recorded}, but its connection (the baseUrl and token inputs of ` +
          `provider "org2") now points to ${h.baseUrl}.`,
      );
      expect(error.details).to.include(
        `set the movedFrom input of provider "org2" (\`movedFrom: "${recorded}"\`), then run \`pulumi up\``,
      );
      expectNoStackConfigAdvice(error.details);

      // A movedFrom that names another platform: the Provider's input, named as such.
      await configureAs("org2", { ...emulatorConfig(h), movedFrom: "https://elsewhere.example.com" });
      const ignored = await rejection(diff());
      expect(ignored.details).to.include(
        '(provider "org2" (codesec.Provider resource inputs) movedFrom is "https://elsewhere.example.com", ' +
          "which is not the platform this resource was created on)",
      );
      expectNoStackConfigAdvice(ignored.details);

      // A named connection of the Provider's.
      await configureAs("org2", {
        connections: JSON.stringify({ team2: { baseUrl: h.baseUrl, token: h.apiToken } }),
      });
      const named = await rejection(
        plugin().diff(
          new provider.DiffRequest()
            .setId("1001/502")
            .setUrn(urnOf("UserRole"))
            .setType("codesec:index:UserRole")
            .setOlds(struct({ ...inputs, connection: "team2", platform: recorded }))
            .setNews(struct({ ...inputs, connection: "team2" })),
        ),
      );
      expect(named.details).to.include(
        `its connection (connection "team2" in the connections input of provider "org2") now points to`,
      );
      expectNoStackConfigAdvice(named.details);
    });

    it("what that message advises moves it: the Provider's movedFrom makes the diff an update, nothing replaced", async () => {
      const h = emulator();
      await configureAs("org2", { ...emulatorConfig(h), movedFrom: recorded });
      const moving = await diff();
      expect(moving.getChanges()).to.equal(provider.DiffResponse.DiffChanges.DIFF_SOME);
      expect(moving.getReplacesList()).to.deep.equal([]);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("the default provider's: stack config, as the dynamic provider says it", async () => {
      const h = emulator();
      await configureAs("default_0_5_0", emulatorConfig(h));
      const error = await rejection(diff());
      expect(error.details).to.include(
        "its connection (stack config (codesec:baseUrl and codesec:token)) now points to",
      );
      expect(error.details).to.include(
        `run \`pulumi config set codesec:movedFrom ${recorded}\`, then \`pulumi up\``,
      );
    });
  });

  describe("a preview never writes", () => {
    for (const kind of RESOURCE_KIND_NAMES) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      // Values are not checked at Create or Update (Check did that): any value of each input serves.
      const inputs = Object.fromEntries(Object.keys(definition.inputs).map((name) => [name, `${name}-1`]));
      inputs.deploymentId = "1001";
      delete inputs.connection;

      it(`${kind}: Create with the preview flag plans its outputs and calls nothing`, async () => {
        const h = emulator();
        await configure(plugin(), emulatorConfig(h));
        const response = await plugin().create(
          new provider.CreateRequest()
            .setUrn(urnOf(kind))
            .setType(`codesec:index:${kind}`)
            .setProperties(struct(inputs))
            .setPreview(true),
        );
        const planned = props(response.getProperties()).values;
        for (const name of outputNames(definition)) {
          expect(planned[name], name).to.equal(name === "platform" ? h.baseUrl : UNKNOWN_VALUE);
        }
        expect(h.control.requests()).to.deep.equal([]);
      });

      it(`${kind}: Update with the preview flag plans its outputs and calls nothing`, async () => {
        const h = emulator();
        await configure(plugin(), emulatorConfig(h));
        const news = { ...inputs };
        for (const name of inputsWhoseChange(definition, "update")) news[name] = `${name}-2`;
        await plugin().update(
          new provider.UpdateRequest()
            .setId("1001/x")
            .setUrn(urnOf(kind))
            .setType(`codesec:index:${kind}`)
            .setOlds(struct({ ...inputs, platform: h.baseUrl }))
            .setOldInputs(struct(inputs))
            .setNews(struct(news))
            .setPreview(true),
        );
        expect(h.control.requests()).to.deep.equal([]);
      });
    }

    it("the same Create and Update without the flag do write (the preview flag is what stops them)", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const inputs = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_ADMIN" };
      const created = await plugin().create(
        new provider.CreateRequest()
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setProperties(struct(inputs)),
      );
      expect(created.getId()).to.equal("1001/502");
      await plugin().update(
        new provider.UpdateRequest()
          .setId("1001/502")
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setOlds(created.getProperties())
          .setNews(struct({ ...inputs, role: "ORG_ROLE_MEMBER" })),
      );
      expect(writesOf(h)).to.deep.equal([
        "PATCH /api/agent/deployments/1001/users/502/roles",
        "PATCH /api/agent/deployments/1001/users/502/roles",
      ]);
    });
  });

  describe("Read: refresh and import", () => {
    it("imports the caller's own role (1001/501) from its id alone", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const response = await plugin().read(readRequest("UserRole", `${h.deploymentId}/${h.sample.userId}`));
      expect(response.getId()).to.equal("1001/501");
      expect(props(response.getProperties()).values).to.deep.include({
        deploymentId: "1001",
        userId: "501",
        role: "ORG_ROLE_ADMIN",
        platform: h.baseUrl,
      });
      expect(props(response.getInputs()).values).to.deep.include({
        deploymentId: "1001",
        userId: "501",
        role: "ORG_ROLE_ADMIN",
      });
      expect(writesOf(h)).to.deep.equal([]);
    });

    it("imports a connected SCM app by its id, without its one-time code", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const response = await plugin().read(readRequest("ScmApp", "1001/apprq-1001-done"));
      const state = props(response.getProperties()).values;
      expect(response.getId()).to.equal("1001/apprq-1001-done");
      expect(state).to.deep.include({ requestId: "apprq-1001-done", slug: "codesec-acme-legacy" });
      expect(state).not.to.have.property("code");
    });

    it("refuses another user's role at once, saying why and what to do", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const error = await rejection(plugin().read(readRequest("UserRole", "1001/502")));
      expect(error.details).to.include("cannot be looked up by id or imported");
      expect(error.details).to.include("user 502 is not that user");
      expect(error.details).not.to.match(/\n\s+at /);
      expect(writesOf(h)).to.deep.equal([]);
    });

    /** The warnings the plugin logged, one string. */
    const warningsOf = () =>
      plugin()
        .logs.map((l) => l.message)
        .join("\n");
    /** A token this process has not used yet: its client has confirmed no deployment. */
    const freshConfig = async (h: ReturnType<typeof emulator>) => {
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: h.sample.userId,
        kind: "apiToken",
      });
      return { baseUrl: h.baseUrl, token: secret(credential) };
    };
    const confirmations = (h: ReturnType<typeof emulator>) =>
      h.control
        .requests()
        .filter((r) => r.operation === "listNotificationRules")
        .map((r) => `${r.operation}:${r.status}`);

    for (const deploymentId of ["9999", "2002"]) {
      it(`refuses to import the caller's own role in deployment ${deploymentId}, which the platform does not confirm as the credentials', quoting its answer and both causes`, async () => {
        const h = emulator();
        await configure(plugin(), emulatorConfig(h));
        const error = await rejection(plugin().read(readRequest("UserRole", `${deploymentId}/501`)));
        expect(error.details).to.include(
          `codesec:UserRole ${deploymentId}/501 cannot be looked up by id or imported: the platform did not ` +
            `confirm deployment ${deploymentId} as the credentials' own (listing its notification rules ` +
            `answered 403 PERMISSION_DENIED: "this credential belongs to deployment 1001 and cannot access ` +
            `deployment ${deploymentId}")`,
        );
        expect(error.details).to.include(`the id names another deployment than the credentials'`);
        expect(error.details).to.include(`<deploymentId>/501`);
        expect(error.details).to.include(
          `the credentials lack permission to list deployment ${deploymentId}'s notification rules`,
        );
        expect(error.details).not.to.include("ORG_ROLE_ADMIN");
        expect(error.details).not.to.match(/\n\s+at /);
        expect(writesOf(h)).to.deep.equal([]);
      });
    }

    for (const status of [403, 404]) {
      it(`an import whose confirmation answers ${status} in the credentials' own deployment is refused, naming the missing permission, and not remembered`, async () => {
        const h = emulator();
        await configure(plugin(), await freshConfig(h));
        h.control.addFault({ operation: "listNotificationRules", status, count: 1 });
        const error = await rejection(plugin().read(readRequest("UserRole", "1001/501")));
        expect(error.details).to.include(
          "codesec:UserRole 1001/501 cannot be looked up by id or imported: the platform did not confirm " +
            `deployment 1001 as the credentials' own (listing its notification rules answered ${status}`,
        );
        expect(error.details).to.include(
          "the credentials lack permission to list deployment 1001's notification rules",
        );
        expect(error.details).not.to.include("credentials of deployment 1001");
        const imported = await plugin().read(readRequest("UserRole", "1001/501"));
        expect(props(imported.getProperties()).values.role).to.equal("ORG_ROLE_ADMIN");
        expect(confirmations(h)).to.deep.equal([
          `listNotificationRules:${status}`,
          "listNotificationRules:200",
        ]);
      });
    }

    it("a confirmation answered 200 with a rule missing a field confirms the deployment: the refresh reads the role back", async () => {
      const h = emulator();
      await configure(plugin(), await freshConfig(h));
      h.control.addFault({
        operation: "listNotificationRules",
        phase: "after",
        omitField: "notification_rules.0.config_error",
        count: 1,
      });
      const state = { deploymentId: "1001", userId: "501", role: "ORG_ROLE_MEMBER", platform: h.baseUrl };
      const refreshed = await plugin().read(readRequest("UserRole", "1001/501", state));
      expect(props(refreshed.getProperties()).values.role).to.equal("ORG_ROLE_ADMIN");
      expect(confirmations(h)).to.deep.equal(["listNotificationRules:200"]);
      expect(warningsOf()).to.equal("");
    });

    it("refuses to import a deployment id written with leading zeros or longer than 15 digits, saying why and what to do", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const error = await rejection(plugin().read(readRequest("UserRole", "01001/501")));
      expect(error.details).to.include("codesec:UserRole 01001/501 cannot be looked up by id or imported");
      expect(error.details).to.include(
        "its deployment id 01001 is not written as the platform writes it (no leading zeros)",
      );
      expect(error.details).to.include("Import it as 1001/501.");
      const long = await rejection(plugin().read(readRequest("UserRole", "1234567890123456/501")));
      expect(long.details).to.include(
        "deployment 1234567890123456 has more than 15 digits, and listing notification rules, the read that " +
          "confirms a deployment, carries the id as a JSON number of at most 15 digits",
      );
      expect(long.details).to.include("Declare the role in the program instead");
      // No read under that deployment: only the caller's own user (get the current user), if not known yet.
      expect(h.control.requests().filter((r) => r.operation !== "getCurrentUser")).to.deep.equal([]);
    });

    for (const deploymentId of ["2002", "01001", "1234567890123456"]) {
      it(`a refresh of the caller's own role in deployment ${deploymentId}, which the platform does not confirm, keeps the state and warns why`, async () => {
        const h = emulator();
        await configure(plugin(), emulatorConfig(h));
        const state = { deploymentId, userId: "501", role: "ORG_ROLE_MEMBER", platform: h.baseUrl };
        const kept = await plugin().read(readRequest("UserRole", `${deploymentId}/501`, state));
        expect(props(kept.getProperties()).values).to.deep.equal(state);
        const warnings = warningsOf();
        expect(warnings).to.include(
          `codesec:UserRole ${deploymentId}/501: the caller's role was not checked, and the state was kept as it was`,
        );
        expect(warnings).to.include("pulumi state delete");
        expect(warnings).not.to.match(/\n\s+at /);
      });
    }

    it("a refresh whose confirmation answers 403 in the credentials' own deployment keeps the state, warns of the missing permission, and asks again next time", async () => {
      const h = emulator();
      await configure(plugin(), await freshConfig(h));
      h.control.addFault({ operation: "listNotificationRules", status: 403, count: 1 });
      const state = { deploymentId: "1001", userId: "501", role: "ORG_ROLE_MEMBER", platform: h.baseUrl };
      const kept = await plugin().read(readRequest("UserRole", "1001/501", state));
      expect(props(kept.getProperties()).values).to.deep.equal(state);
      expect(warningsOf()).to.include(
        "the credentials lack permission to list deployment 1001's notification rules",
      );
      const refreshed = await plugin().read(readRequest("UserRole", "1001/501", state));
      expect(props(refreshed.getProperties()).values.role).to.equal("ORG_ROLE_ADMIN");
      expect(confirmations(h)).to.deep.equal(["listNotificationRules:403", "listNotificationRules:200"]);
    });

    it("a refresh of a UserRole whose role read back equals its state asks for no confirmation", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const state = { deploymentId: "2002", userId: "501", role: "ORG_ROLE_ADMIN", platform: h.baseUrl };
      const kept = await plugin().read(readRequest("UserRole", "2002/501", state));
      expect(props(kept.getProperties()).values).to.deep.equal(state);
      expect(confirmations(h)).to.deep.equal([]);
      expect(warningsOf()).to.equal("");
    });

    it("a refresh of a UserRoles holding the caller in a deployment the platform does not confirm keeps the state and warns why", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const state = {
        deploymentId: "2002",
        roles: { "501": "ORG_ROLE_MEMBER", "601": "ORG_ROLE_ADMIN" },
        platform: h.baseUrl,
      };
      const id = "2002/userroles-5c1e0a9e-3f0b-4d7e-9a57-0d2b6f1c8e11";
      const kept = await plugin().read(readRequest("UserRoles", id, state));
      expect(props(kept.getProperties()).values).to.deep.equal(state);
      expect(warningsOf()).to.include(
        `codesec:UserRoles ${id}: the caller's role was not checked, and the state was kept as it was`,
      );
    });

    it("an unknown type token is quoted on one line, its control and bidirectional characters escaped", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const resource = await rejection(
        plugin().read(readRequest("UserRole", "1001/501").setType("codesec:index:Bad\u202e\nerror: forged")),
      );
      expect(resource.details).to.equal(
        'pulumi-codesec has no resource type "codesec:index:Bad\\u202e\\nerror: forged"',
      );
      const fn = await rejection(
        plugin().invoke(new provider.InvokeRequest().setTok("codesec:index:bad\u2066\r").setArgs(struct({}))),
      );
      expect(fn.details).to.equal('pulumi-codesec has no function "codesec:index:bad\\u2066\\r"');
    });

    it("an id with control characters is refused before any call, shown with them escaped", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      for (const kind of ["UserRole", "ScmApp", "WorkflowProvisioning"]) {
        const error = await rejection(plugin().read(readRequest(kind, "1001/\u001b[31mRED\u001b[0m\u202e")));
        expect(error.details, kind).to.include("1001/\\u001b[31mRED\\u001b[0m\\u202e");
        // eslint-disable-next-line no-control-regex -- control characters are what it looks for
        expect(error.details, kind).not.to.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
      }
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a warning echoes a user id with its bidirectional controls escaped", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const gone = { deploymentId: "1001", userId: "50\u202e9", role: "ORG_ROLE_ADMIN" };
      await plugin().delete(
        new provider.DeleteRequest()
          .setId("1001/50\u202e9")
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setProperties(struct({ ...gone, roleOnDestroy: "ORG_ROLE_MEMBER", platform: h.baseUrl })),
      );
      const warnings = plugin().logs.map((l) => l.message);
      expect(warnings.join("\n")).to.include(
        "codesec:UserRole 1001/50\\u202e9: the user is no longer a member of deployment 1001",
      );
      expect(warnings.join("\n")).not.to.include("\u202e");
    });

    for (const kind of RESOURCE_KIND_NAMES) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      if (definition.importRule.kind !== "refused") continue;
      const why = definition.importRule.why;
      it(`${kind} has no read operation: an import is refused with the kind's reason, no stack trace`, async () => {
        const h = emulator();
        await configure(plugin(), emulatorConfig(h));
        const error = await rejection(plugin().read(readRequest(kind, "1001/x")));
        expect(error.details).to.equal(
          `codesec:${kind} "1001/x" cannot be looked up by id or imported: ${why}`,
        );
        const forged = await rejection(plugin().read(readRequest(kind, "1001/x\nerror: all good, forged\r")));
        expect(forged.details).to.equal(
          `codesec:${kind} "1001/x\\nerror: all good, forged\\r" cannot be looked up by id or imported: ${why}`,
        );
        expect(h.control.requests()).to.deep.equal([]);
      });
    }

    it("a refresh keeps what it cannot read and drops a user's role no longer there", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const state = { deploymentId: "1001", configId: "scmcfg-1001-a", platform: h.baseUrl };
      const kept = await plugin().read(
        readRequest("ScmWebhookSubscription", "1001/scmcfg-1001-a", state).setInputs(
          struct({ deploymentId: "1001", configId: "scmcfg-1001-a" }),
        ),
      );
      expect(props(kept.getProperties()).values).to.deep.equal(state);
      expect(kept.getId()).to.equal("1001/scmcfg-1001-a");
    });
  });

  describe("secrets on the way out", () => {
    it("ScmApp's code and an object connection's token leave as secrets; no log quotes a token", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const app = await plugin().create(
        new provider.CreateRequest()
          .setUrn(urnOf("ScmApp"))
          .setType("codesec:index:ScmApp")
          .setProperties(
            struct({
              deploymentId: "1001",
              requestId: h.sample.scmAppRequestId,
              code: secret(h.sample.scmAppCode),
            }),
          ),
      );
      const appState = props(app.getProperties());
      for (const [name, value] of Object.entries(appState.values)) {
        expect(appState.secrets.has(name), name).to.equal(
          isSecretValue(RESOURCE_DEFINITIONS.ScmApp, name, value),
        );
      }
      expect(JSON.stringify(appState.values)).not.to.include(h.sample.scmAppCode);

      const role = await plugin().create(
        new provider.CreateRequest()
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setProperties(
            struct({
              deploymentId: "1001",
              userId: "502",
              role: "ORG_ROLE_MEMBER",
              connection: { baseUrl: h.baseUrl, token: h.apiToken },
            }),
          ),
      );
      const roleState = props(role.getProperties());
      expect([...roleState.secrets]).to.deep.equal(["connection"]);
      expect(role.getProperties()!.toJavaScript().connection).to.have.property(
        "4dabf18193072939515e22adb298388d",
      );
      // The deprecated object form warns through the engine, naming no token.
      expect(JSON.stringify(plugin().logs)).not.to.include(h.apiToken);
    });
  });

  describe("Invoke: the six functions", () => {
    const ARGS: Record<string, (h: EmulatorHandle) => Record<string, unknown>> = {
      getScan: (h) => ({ deploymentId: h.deploymentId, scanId: h.sample.scanId }),
      getBranch: (h) => ({
        deploymentId: h.deploymentId,
        projectId: h.sample.projectId,
        branchId: h.sample.branchId,
      }),
      getScmApp: (h) => ({ deploymentId: h.deploymentId, requestId: "apprq-1001-done" }),
      getCurrentUser: () => ({}),
      getJoinableOrganizations: (h) => ({ userId: h.sample.userId }),
      getNotificationRules: (h) => ({ deploymentId: h.deploymentId }),
    };

    it("every function is covered here", () => {
      expect(Object.keys(ARGS).sort()).to.deep.equal(Object.keys(FUNCTION_DEFINITIONS).sort());
    });

    for (const [name, argsOf] of Object.entries(ARGS)) {
      it(`codesec:index:${name} answers what the function's definition reads, with no write`, async () => {
        const h = emulator();
        // listJoinableOrganizations accepts only the user's JWT.
        const token = name === "getJoinableOrganizations" ? h.jwt : h.apiToken;
        await configure(plugin(), { baseUrl: h.baseUrl, token: secret(token) });
        const args = argsOf(h);
        const response = await plugin().invoke(
          new provider.InvokeRequest().setTok(`codesec:index:${name}`).setArgs(struct(args)),
        );
        expect(response.getFailuresList()).to.deep.equal([]);
        const definition = FUNCTION_DEFINITIONS[name as keyof typeof FUNCTION_DEFINITIONS];
        const client = clientFor({
          baseUrl: h.baseUrl,
          token,
          source: "test",
          fields: { baseUrl: "baseUrl", token: "token" },
          origin: STACK_CONFIG,
          fromOrigin: true,
        });
        const direct = await definition.invoke(client, args as never);
        expect(props(response.getReturn()).values).to.deep.equal(
          JSON.parse(JSON.stringify(toSchemaNames(definition.result, direct))),
        );
        expect(writesOf(h)).to.deep.equal([]);
      });
    }

    it("getNotificationRules speaks the schema's camelCase names, the platform's snake_case only inside", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const invoke = (filters: Record<string, unknown>) =>
        plugin().invoke(
          new provider.InvokeRequest()
            .setTok("codesec:index:getNotificationRules")
            .setArgs(struct({ deploymentId: h.deploymentId, filters })),
        );
      const disabled = await invoke({ isEnabled: false });
      expect(disabled.getFailuresList()).to.deep.equal([]);
      const rules = props(disabled.getReturn()).values.rules as Record<string, unknown>[];
      expect(rules).to.have.length.above(0);
      for (const rule of rules) {
        expect(rule).to.include({ isEnabled: false });
        expect(rule).to.have.keys([
          "id",
          "channel",
          "config",
          "isEnabled",
          "name",
          "policySlugs",
          "useNetworkBroker",
          "configError",
          "sendScanCompletion",
        ]);
      }
      const requests = h.control.requests().length;
      const wireName = await invoke({ is_enabled: false });
      expect(wireName.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).to.deep.equal([
        [
          "",
          'is_enabled is not a field of filters (did you mean "isEnabled"?); its fields are channel, isEnabled',
        ],
      ]);
      expect(h.control.requests().length).to.equal(requests);
    });

    it("a bad argument fails naming it, before any request; an unknown function is refused", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      const response = await plugin().invoke(
        new provider.InvokeRequest()
          .setTok("codesec:index:getScan")
          .setArgs(struct({ deploymentId: "not-a-number", scanId: h.sample.scanId })),
      );
      expect(response.getFailuresList().map((f) => f.getProperty())).to.deep.equal(["deploymentId"]);
      expect(h.control.requests()).to.deep.equal([]);
      const error = await rejection(
        plugin().invoke(new provider.InvokeRequest().setTok("codesec:index:getNothing").setArgs(struct({}))),
      );
      expect(error.code).to.equal(grpc.status.INVALID_ARGUMENT);
    });
  });

  describe("a configuration not known until apply (an explicit Provider's input from another resource)", () => {
    const userRole = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };

    it("Check of a resource on it sends no request, the placeholder token never, and fails nothing", async () => {
      const h = emulator();
      await configure(plugin(), { baseUrl: h.baseUrl, token: UNKNOWN_VALUE });
      const response = await plugin().check(checkRequest("UserRole", userRole));
      expect(response.getFailuresList()).to.deep.equal([]);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a preview's Create plans the platform as unknown; Diff is no platform mismatch; no request", async () => {
      const h = emulator();
      await configure(plugin(), { baseUrl: UNKNOWN_VALUE, token: secret(h.apiToken) });
      const created = await plugin().create(
        new provider.CreateRequest()
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setProperties(struct(userRole))
          .setPreview(true),
      );
      expect(props(created.getProperties()).values.platform).to.equal(UNKNOWN_VALUE);
      const diff = await plugin().diff(
        new provider.DiffRequest()
          .setId("1001/502")
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setOlds(struct({ ...userRole, platform: h.baseUrl }))
          .setOldInputs(struct(userRole))
          .setNews(struct(userRole)),
      );
      expect(diff.getReplacesList()).to.deep.equal([]);
      const updated = await plugin().update(
        new provider.UpdateRequest()
          .setId("1001/502")
          .setUrn(urnOf("UserRole"))
          .setType("codesec:index:UserRole")
          .setOlds(struct({ ...userRole, platform: h.baseUrl }))
          .setOldInputs(struct(userRole))
          .setNews(struct({ ...userRole, role: "ORG_ROLE_ADMIN" }))
          .setPreview(true),
      );
      expect(props(updated.getProperties()).values.platform).to.equal(UNKNOWN_VALUE);
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a function on it answers that the configuration is not known yet, with no request", async () => {
      const h = emulator();
      await configure(plugin(), { baseUrl: h.baseUrl, token: UNKNOWN_VALUE });
      const response = await plugin().invoke(
        new provider.InvokeRequest().setTok("codesec:index:getCurrentUser").setArgs(struct({})),
      );
      const reasons = response.getFailuresList().map((f) => f.getReason());
      expect(reasons).to.have.length(1);
      expect(reasons[0]).to.match(
        /^pulumi-codesec: the provider's configuration \(token\) is not known until apply, so getCurrentUser cannot run yet/,
      );
      expect(h.control.requests()).to.deep.equal([]);
    });

    it("a Read, Create or Delete on it is refused, naming the setting, with no request", async () => {
      const h = emulator();
      await configure(plugin(), { baseUrl: h.baseUrl, token: UNKNOWN_VALUE });
      const userRole = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };
      const calls: [string, Promise<unknown>][] = [
        ["Read", plugin().read(readRequest("UserRole", "1001/502", { ...userRole, platform: h.baseUrl }))],
        [
          "Create",
          plugin().create(
            new provider.CreateRequest()
              .setUrn(urnOf("UserRole"))
              .setType("codesec:index:UserRole")
              .setProperties(struct(userRole)),
          ),
        ],
        [
          "Delete",
          plugin().delete(
            new provider.DeleteRequest()
              .setId("1001/502")
              .setUrn(urnOf("UserRole"))
              .setType("codesec:index:UserRole")
              .setProperties(struct({ ...userRole, platform: h.baseUrl })),
          ),
        ],
      ];
      for (const [name, call] of calls) {
        const error = await rejection(call);
        expect(error.code, name).to.equal(grpc.status.FAILED_PRECONDITION);
        expect(error.details, name).to.include(
          `the provider's configuration (token) is not known until apply, so ${name} cannot run yet`,
        );
      }
      expect(h.control.requests()).to.deep.equal([]);
    });
  });

  describe("the engine's limits", () => {
    it("a Create's timeout bounds the whole call, as deadlineMs does", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      h.control.addFault({ operation: "updateUserRole", latencyMs: 5000, count: 1 });
      const error = await rejection(
        plugin().create(
          new provider.CreateRequest()
            .setUrn(urnOf("UserRole"))
            .setType("codesec:index:UserRole")
            .setProperties(struct({ deploymentId: "1001", userId: "502", role: "ORG_ROLE_ADMIN" }))
            .setTimeout(0.3),
        ),
      );
      expect(error.details).to.match(/deadline/i);
      // The limit that ended it is the resource's customTimeouts, not the provider's deadlineMs.
      expect(error.details).to.include("the resource's customTimeouts (0.3 s for this step)");
      expect(error.details).not.to.include("codesec:deadlineMs");
      // The one attempt was cut short by the step's limit: raising timeoutMs would not have waited longer.
      expect(error.details).to.include("To wait longer, raise the deadline: the resource's customTimeouts.");
      expect(error.details).not.to.include("raise timeoutMs");
    });

    it("a customTimeouts over 30 s with codesec:deadlineMs unset is the limit named", async () => {
      const h = emulator();
      // The platform asks for a wait longer than the step's 31 s: the call stops at once, past its deadline.
      await configure(plugin(), { ...emulatorConfig(h), maxRetryDelayMs: "120000" });
      h.control.addFault({ operation: "updateUserRole", status: 503, retryAfter: "60", count: 1 });
      const error = await rejection(
        plugin().create(
          new provider.CreateRequest()
            .setUrn(urnOf("UserRole"))
            .setType("codesec:index:UserRole")
            .setProperties(struct({ deploymentId: "1001", userId: "502", role: "ORG_ROLE_ADMIN" }))
            .setTimeout(31),
        ),
      );
      expect(error.details).to.include("the resource's customTimeouts (31 s for this step)");
      expect(error.details).not.to.include("deadlineMs");
    });

    it("a write not sent again, cut short by customTimeouts, names them as the limit", async () => {
      const h = emulator();
      await configure(plugin(), emulatorConfig(h));
      h.control.addFault({ operation: "completeScmAppRequest", latencyMs: 5000, count: 1 });
      const error = await rejection(
        plugin().create(
          new provider.CreateRequest()
            .setUrn(urnOf("ScmApp"))
            .setType("codesec:index:ScmApp")
            .setProperties(
              struct({
                deploymentId: "1001",
                requestId: h.sample.scmAppRequestId,
                code: secret(h.sample.scmAppCode),
              }),
            )
            .setTimeout(0.3),
        ),
      );
      expect(error.details).to.include("the outcome is unknown");
      expect(error.details).to.include("the resource's customTimeouts (0.3 s for this step)");
      expect(error.details).not.to.match(/\(timeoutMs\)/);
      expect(error.details).not.to.include(h.sample.scmAppCode);
    });

    for (const [configuration, configOf] of [
      ["known", (h: EmulatorHandle) => emulatorConfig(h)],
      // Cancel is answered first, as by every other call, not the configuration's refusal.
      ["not known until apply", (h: EmulatorHandle) => ({ baseUrl: h.baseUrl, token: UNKNOWN_VALUE })],
    ] as const) {
      it(`after Cancel, no new call starts (a configuration ${configuration})`, async () => {
        const h = emulator();
        await configure(plugin(), configOf(h));
        await plugin().cancel(new Empty());
        const error = await rejection(
          plugin().invoke(
            new provider.InvokeRequest().setTok("codesec:index:getCurrentUser").setArgs(struct({})),
          ),
        );
        expect(error.code).to.equal(grpc.status.CANCELLED);
        expect(h.control.requests()).to.deep.equal([]);
      });
    }
  });
});
