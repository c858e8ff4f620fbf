/**
 * Every generated docs example RUNS against the emulator with its default fixtures, in-process and without
 * the Pulumi CLI: each TypeScript program (docs/examples/<group>/<owner>/<name>/typescript/index.ts, the
 * one the pages show first) runs under Pulumi's runtime mocks whose newResource and call go to the native
 * plugin (provider/native, in this process, on 127.0.0.1): Check then Create for a resource, Invoke for a
 * function, as the engine asks it during `pulumi up`. So every step is the kinds' real lifecycle against
 * the emulator, and an example whose values the platform refuses (a project with no repository, a request
 * not yet completed) fails here, naming the example and the platform's answer.
 *
 * One language is enough for behaviour: the Python and Go programs come from the same PCL source with the
 * same values (tests/e2e/docsExamples.test.ts runs the Python under plain mocks and compiles the Go).
 *
 * An error the program throws outside any call (an `.apply` callback that throws: an unhandled rejection,
 * which the Node host logs and exits 32 for) and a `pulumi.log.error` fail the example too.
 *
 * An explicit `codesec.Provider` gets its own plugin, whose CheckConfig sees its inputs as written (a
 * failure fails the example), then configured with them but its `baseUrl`, which is the emulator's: the
 * examples name the platform's public address, which a test never reaches. The default provider's
 * configuration (the emulator's address and a token) goes through CheckConfig too.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import Module from "node:module";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import { RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { docsExamples, EXAMPLES_DIR, examplePrograms, type DocsExample } from "../../scripts/docsExamples";
import { useEmulator } from "../support/emulator";
import {
  configure,
  provider,
  providerUrn,
  props,
  secret,
  startPlugin,
  struct,
  type PluginHandle,
} from "../support/nativePlugin";

const root = path.resolve(__dirname, "../..");
/** The project the examples run as: their `pulumi.Config()` keys are namespaced by it. */
const PROJECT = "docs-example";
const PROVIDER_TYPE = "pulumi:providers:codesec";

type Plugin = PluginHandle & { close(): Promise<void> };

/** A resource or call of one example's run, and the platform's answer to it when it failed. */
interface Step {
  readonly what: string;
  readonly failure?: string;
}

/** The TypeScript program of `example` as CommonJS, its SDK import pointed at sdk/nodejs (from source). */
function compiledProgram(file: string): string {
  const source = fs
    .readFileSync(path.join(root, file), "utf8")
    .replace(
      'from "@pulumi-codesec/codesec"',
      `from ${JSON.stringify(path.join(root, "sdk/nodejs/index.ts"))}`,
    );
  return ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
    fileName: file,
  }).outputText;
}

/** The text of a failed plugin call (a gRPC error's details, or a Check's or Invoke's failures). */
function failureText(error: unknown): string {
  const details = (error as { details?: string }).details;
  return details !== undefined && details !== "" ? details : String((error as Error).message ?? error);
}

/**
 * Configures `plugin` as the engine configures a provider (`name`: `default_0_5_0` or a Provider
 * resource's): CheckConfig on its inputs exactly as the program wrote them (the plugin validates there and
 * sends no request), failing with its failures as the CLI does; then Configure with the checked inputs,
 * their `baseUrl` replaced by `baseUrl` when given (the emulator's: an example names the platform's public
 * address, which a test never reaches).
 */
async function checkAndConfigure(
  plugin: Plugin,
  name: string,
  inputs: Record<string, unknown>,
  baseUrl?: string,
): Promise<void> {
  const checked = await plugin.checkConfig(
    new provider.CheckRequest()
      .setUrn(providerUrn(name))
      .setName(name)
      .setType(PROVIDER_TYPE)
      .setNews(struct(inputs)),
  );
  const failures = checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
  if (failures.length > 0) throw new Error(`provider ${name}: ${failures.join("; ")}`);
  const { values, secrets } = props(checked.getInputs());
  const configured = Object.fromEntries(
    Object.entries({ ...values, ...(baseUrl === undefined ? {} : { baseUrl }) }).map(([key, value]) => [
      key,
      secrets.has(key) ? secret(value) : value,
    ]),
  );
  await configure(plugin, configured, name);
}

/**
 * Collects what the Pulumi Node host would end a program for (it logs either and exits 32, cmd/run): an
 * error thrown outside any awaited call (an `.apply` callback that throws) is an unhandled rejection or an
 * uncaught exception, which mocha would otherwise swallow or pin on whichever test is running. The listener
 * goes first so the error is seen before mocha's own; `stop` removes it.
 */
function collectProgramErrors(): { readonly errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  // Mocha's unhandledRejection listener re-emits the event (without itself): the same reason comes twice.
  const collect = (reason: unknown) => {
    if (!errors.includes(reason)) errors.push(reason);
  };
  process.prependListener("unhandledRejection", collect);
  process.prependListener("uncaughtException", collect);
  return {
    errors,
    stop: () => {
      process.removeListener("unhandledRejection", collect);
      process.removeListener("uncaughtException", collect);
    },
  };
}

/**
 * Runs the TypeScript program of `example` under mocks that drive native plugins configured for the
 * emulator (`connection`: its base URL and a token) with stack config `config`; resolves to every step
 * it took, its stack outputs and the provider each plugin was started for.
 */
async function runExample(
  example: DocsExample,
  connection: { baseUrl: string; token: string },
  config: Record<string, string>,
  secretConfig: readonly string[],
): Promise<{ steps: Step[]; outputs: Record<string, unknown>; started: string[] }> {
  const steps: Step[] = [];
  const plugins: Plugin[] = [];
  /** The provider each plugin was started for, in order: the engine starts one per provider. */
  const started: string[] = [];
  // The pending start, not the plugin: calls that arrive together for one provider share its one plugin.
  const byProvider = new Map<string, Promise<Plugin>>();
  const pending = new Set<Promise<unknown>>();
  const startProvider = async (
    name: string,
    inputs: Record<string, unknown>,
    baseUrl?: string,
  ): Promise<Plugin> => {
    started.push(name);
    const plugin = await startPlugin();
    plugins.push(plugin);
    await checkAndConfigure(plugin, name, inputs, baseUrl);
    return plugin;
  };
  const pluginFor = (ref: string | undefined): Promise<Plugin> => {
    const id = ref !== undefined && ref !== "" ? ref.slice(ref.lastIndexOf("::") + 2) : "";
    let plugin = byProvider.get(id);
    if (plugin === undefined) {
      if (id !== "") return Promise.reject(new Error(`no provider ${ref}`));
      plugin = startProvider("default_0_5_0", { baseUrl: connection.baseUrl, token: connection.token });
      byProvider.set(id, plugin);
    }
    return plugin;
  };
  const track = <T>(what: string, step: () => Promise<T>): Promise<T> => {
    const run = step().then(
      (value) => {
        steps.push({ what });
        return value;
      },
      (error: unknown) => {
        steps.push({ what, failure: failureText(error) });
        throw error;
      },
    );
    pending.add(run);
    return run;
  };
  const mocks: pulumi.runtime.Mocks = {
    newResource: (args) =>
      // The stack (a component): nothing for a provider to do.
      args.custom !== true
        ? { id: undefined, state: args.inputs as Record<string, unknown> }
        : track(`${args.type} ${args.name}`, async () => {
            const inputs = args.inputs as Record<string, unknown>;
            if (args.type === PROVIDER_TYPE) {
              const id = `${args.name}-provider-id`;
              const plugin = startProvider(args.name, inputs, connection.baseUrl);
              byProvider.set(id, plugin);
              await plugin;
              return { id, state: inputs };
            }
            const plugin = await pluginFor(args.provider);
            const urn = `urn:pulumi:test::${PROJECT}::${args.type}::${args.name}`;
            const checked = await plugin.check(
              new provider.CheckRequest().setUrn(urn).setType(args.type).setNews(struct(inputs)),
            );
            const failures = checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
            if (failures.length > 0) throw new Error(failures.join("; "));
            const created = await plugin.create(
              new provider.CreateRequest().setUrn(urn).setType(args.type).setProperties(checked.getInputs()),
            );
            return { id: created.getId(), state: props(created.getProperties()).values };
          }),
    call: (args) =>
      track(`invoke ${args.token}`, async () => {
        const plugin = await pluginFor(args.provider);
        const response = await plugin.invoke(
          new provider.InvokeRequest()
            .setTok(args.token)
            .setArgs(struct(args.inputs as Record<string, unknown>)),
        );
        const failures = response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
        if (failures.length > 0) throw new Error(failures.join("; "));
        return props(response.getReturn()).values;
      }),
  };
  await pulumi.runtime.setMocks(mocks, PROJECT, "test", false);
  pulumi.runtime.setAllConfig(
    Object.fromEntries(Object.entries(config).map(([key, value]) => [`${PROJECT}:${key}`, value])),
    secretConfig.map((key) => `${PROJECT}:${key}`),
  );
  const { file } = examplePrograms(example).find(({ language }) => language.folder === "typescript")!;
  const programErrors = collectProgramErrors();
  try {
    let exported: Record<string, unknown> | undefined;
    try {
      exported = await pulumi.runtime.runInPulumiStack(async () => {
        const program = new Module(path.join(root, file)) as Module & {
          _compile(code: string, filename: string): void;
        };
        program.filename = path.join(root, file);
        program.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
          path.dirname(program.filename),
        );
        program._compile(compiledProgram(file), program.filename);
        return program.exports as Record<string, unknown>;
      });
    } catch (error) {
      steps.push({ what: "the program", failure: failureText(error) });
    }
    const outputs: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(exported ?? {})) {
      try {
        outputs[name] = await (pulumi.output(value) as unknown as { promise(): Promise<unknown> }).promise();
      } catch (error) {
        steps.push({ what: `stack output ${name}`, failure: failureText(error) });
      }
    }
    // Every registration and call the program started has ended (a failed one recorded its failure).
    await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
    while (pending.size > 0) {
      const batch = [...pending];
      pending.clear();
      await Promise.allSettled(batch);
    }
    // A rejection nobody handled is reported once the microtasks have run: after this turn.
    await new Promise((resolve) => setImmediate(resolve));
    for (const error of programErrors.errors)
      steps.push({ what: "the program (unhandled)", failure: failureText(error) });
    // The CLI reports a `pulumi.log.error` of the program as an error of the update; under mocks it only
    // counts (setMocks resets the count), and the Node host logs an unhandled error that way too.
    if (pulumi.log.hasErrors())
      steps.push({ what: "the program", failure: "it logged an error (pulumi.log.error)" });
    return { steps, outputs, started };
  } finally {
    programErrors.stop();
    for (const plugin of plugins) await plugin.close();
  }
}

/**
 * What each example asks of the platform against the default fixtures, by its generated folder: the
 * operations the emulator served, sorted, each `operation:status`. A connection's first resource step
 * proves its credentials with one read of the current user (provider/clients.ts verifyCredentials).
 */
const EXPECTED_CALLS: Record<string, string[]> = {
  "functions/getBranch/main": ["getBranch:200"],
  "functions/getCurrentUser/main": ["getCurrentUser:200"],
  "functions/getJoinableOrganizations/main": ["listJoinableOrganizations:200"],
  "functions/getNotificationRules/main": ["listNotificationRules:200"],
  "functions/getScan/main": ["getScan:200"],
  "functions/getScmApp/main": ["completeScmAppRequest:200", "getCurrentUser:200", "getScmApp:200"],
  readme: [
    "completeScmAppRequest:200",
    "getCurrentUser:200",
    "listNotificationRules:200",
    "provisionWorkflows:200",
    "subscribeScmWebhook:200",
    "updateUserRole:200",
  ],
  "resources/ScmApp/main": ["completeScmAppRequest:200", "getCurrentUser:200", "getScmApp:200"],
  "resources/ScmWebhookSubscription/main": ["getCurrentUser:200", "subscribeScmWebhook:200"],
  "resources/UserRole/main": ["getCurrentUser:200", "updateUserRole:200"],
  "resources/UserRoles/main": ["getCurrentUser:200", "updateUserRole:200", "updateUserRole:200"],
  "resources/WorkflowProvisioning/main": ["getCurrentUser:200", "provisionWorkflows:200"],
};

describe("the docs examples RUN against the emulator (TypeScript, native plugin in-process, no CLI)", function () {
  this.timeout(60_000);
  const emulator = useEmulator();
  const examples = docsExamples(root);

  it("finds one example per resource kind and function at least, and the README's", () => {
    expect(examples.length).to.be.at.least(
      RESOURCE_KIND_NAMES.length + Object.keys(FUNCTION_DEFINITIONS).length + 1,
    );
  });

  for (const example of examples) {
    it(`${example.target} runs with no failure, with the platform calls it documents`, async () => {
      const handle = emulator();
      const scmAppCode = "otc-1001-a-7Hq2Zp9L";
      const { credential: userJwt } = await handle.control.mintCredential({
        kind: "jwt",
        userId: "502",
        deploymentId: "1001",
      });
      // A token of its own: the provider keeps one client (and the current user it read) per connection per
      // process (provider/clients.ts), and here every test's plugins share this process where each `pulumi up`
      // starts fresh ones: with the fixture token, later examples lose their getCurrentUser. For the same
      // reason the plugins of one example share a client, so the calls cannot show two plugins started for one
      // provider (they made one getCurrentUser): `started` checks that.
      const { credential: token } = await handle.control.mintCredential({
        kind: "apiToken",
        userId: "501",
        deploymentId: "1001",
      });
      handle.control.clearRequests();
      const { steps, started } = await runExample(
        example,
        { baseUrl: handle.baseUrl, token },
        { scmAppCode, userJwt, userId: "502" },
        ["scmAppCode", "userJwt"],
      );
      const failures = steps.filter((step) => step.failure !== undefined);
      expect(failures, `${example.target}: failed steps`).to.deep.equal([]);
      // As the engine: one plugin per provider, however many of its calls arrive together.
      expect(started, `${example.target}: plugins started, by provider`).to.deep.equal([...new Set(started)]);
      // Sorted: a program registers its resources concurrently.
      const calls = handle.control
        .requests()
        .map((request) => `${request.operation}:${request.status}`)
        .sort();
      expect(calls).to.deep.equal(EXPECTED_CALLS[path.relative(EXAMPLES_DIR, example.target)]);
    });
  }
});
