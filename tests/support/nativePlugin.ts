/**
 * The native plugin (provider/native) in the test's own process, driven as the engine drives it: a gRPC
 * client of its ResourceProvider service, and a stand-in for the engine's Engine service that keeps every
 * message the plugin logs. A fresh plugin per test (one process serves one provider), on 127.0.0.1.
 *
 * @example
 * const plugin = usePlugin();
 * it("answers GetPluginInfo", async () => {
 *   const info = await plugin().getPluginInfo(new Empty());
 * });
 */
import * as grpc from "@grpc/grpc-js";
import { spawn, type ChildProcessByStdio } from "node:child_process";
import * as net from "node:net";
import * as path from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { startPluginServer, type PluginServer } from "../../provider/native/server";
import {
  fromStruct,
  SECRET_SIGNATURE,
  SIGNATURE_KEY,
  toStruct,
  type PropertyBag,
} from "../../provider/native/properties";
import {
  Empty,
  EngineService,
  PluginInfo,
  provider,
  ResourceProviderClient,
  type IEngineServer,
  type LogRequest,
} from "../../provider/native/protocol";
import { UNKNOWN_VALUE } from "../../provider/resources/lifecycle";

export { Empty, provider, UNKNOWN_VALUE };

/** A message the plugin sent to the engine's Log service. */
export interface LoggedMessage {
  severity: number;
  message: string;
  urn: string;
}

type Callback<Res> = (error: grpc.ServiceError | null, response: Res) => void;

/** Every unary method of the service, as a Promise (a failure rejects with the gRPC error). */
export interface PluginClient {
  handshake(request: provider.ProviderHandshakeRequest): Promise<provider.ProviderHandshakeResponse>;
  getPluginInfo(request: Empty): Promise<PluginInfo>;
  getSchema(request: provider.GetSchemaRequest): Promise<provider.GetSchemaResponse>;
  checkConfig(request: provider.CheckRequest): Promise<provider.CheckResponse>;
  diffConfig(request: provider.DiffRequest): Promise<provider.DiffResponse>;
  configure(request: provider.ConfigureRequest): Promise<provider.ConfigureResponse>;
  check(request: provider.CheckRequest): Promise<provider.CheckResponse>;
  diff(request: provider.DiffRequest): Promise<provider.DiffResponse>;
  create(request: provider.CreateRequest): Promise<provider.CreateResponse>;
  read(request: provider.ReadRequest): Promise<provider.ReadResponse>;
  update(request: provider.UpdateRequest): Promise<provider.UpdateResponse>;
  delete(request: provider.DeleteRequest): Promise<Empty>;
  invoke(request: provider.InvokeRequest): Promise<provider.InvokeResponse>;
  cancel(request: Empty): Promise<Empty>;
  construct(request: provider.ConstructRequest): Promise<provider.ConstructResponse>;
  call(request: provider.CallRequest): Promise<provider.CallResponse>;
  parameterize(request: provider.ParameterizeRequest): Promise<provider.ParameterizeResponse>;
  getMapping(request: provider.GetMappingRequest): Promise<provider.GetMappingResponse>;
  getMappings(request: provider.GetMappingsRequest): Promise<provider.GetMappingsResponse>;
}

export interface PluginHandle extends PluginClient {
  readonly server: PluginServer;
  /** What the plugin logged through the engine, oldest first. */
  readonly logs: LoggedMessage[];
}

const METHODS: (keyof PluginClient)[] = [
  "handshake",
  "getPluginInfo",
  "getSchema",
  "checkConfig",
  "diffConfig",
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
  "invoke",
  "cancel",
  "construct",
  "call",
  "parameterize",
  "getMapping",
  "getMappings",
];

/** A stand-in for the engine's Engine service: Log keeps the message; the rest are not used by plugins. */
async function startEngine(logs: LoggedMessage[]): Promise<{ address: string; close(): Promise<void> }> {
  const server = new grpc.Server();
  const unimplemented = (_call: unknown, callback: (error: grpc.ServiceError) => void) =>
    callback({
      name: "Error",
      message: "not here",
      code: grpc.status.UNIMPLEMENTED,
      details: "",
      metadata: new grpc.Metadata(),
    });
  const engine: IEngineServer = {
    log: (call: grpc.ServerUnaryCall<LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
      logs.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
      callback(null, new Empty());
    },
    getRootResource: unimplemented,
    setRootResource: unimplemented,
    startDebugging: unimplemented,
    requirePulumiVersion: unimplemented,
  };
  server.addService(EngineService, engine);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

/** A client of the plugin serving on `port`, every method a Promise; `close` ends the client. */
function pluginClient(port: number): PluginClient & { close: () => void } {
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const methods = { close: () => client.close() } as PluginClient & { close: () => void };
  for (const method of METHODS) {
    const fn = (client as unknown as Record<string, (request: unknown, callback: Callback<unknown>) => void>)[
      method
    ];
    (methods as unknown as Record<string, unknown>)[method] = (request: unknown) =>
      new Promise((resolve, reject) =>
        fn.call(client, request, (error, response) => (error ? reject(error) : resolve(response))),
      );
  }
  return methods;
}

/** A plugin server and its client, for one test; `close` ends both and the engine stand-in. */
export async function startPlugin(): Promise<PluginHandle & { close(): Promise<void> }> {
  const logs: LoggedMessage[] = [];
  const engine = await startEngine(logs);
  const server = await startPluginServer({ engineAddress: engine.address });
  const client = pluginClient(server.port);
  const closeClient = client.close;
  return Object.assign(client, {
    server,
    logs,
    close: async () => {
      closeClient();
      await server.close();
      await engine.close();
    },
  });
}

/** The plugin in a process of its own, started as the engine starts it. */
export interface PluginProcess {
  readonly child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  /** The engine's client of the plugin, through a connection the test can cut (`dropConnection`). */
  readonly client: PluginClient;
  /** The port the plugin itself serves on (the client connects through a relay). */
  readonly port: number;
  /** What the plugin logged through the engine stand-in, oldest first. */
  readonly logs: LoggedMessage[];
  /** Resolves when the process has ended, with how it ended and everything it wrote to stderr. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Cuts the client's connection, as the engine closes it before it stops a plugin. */
  dropConnection(): void;
  /**
   * Everything a killed CLI takes with it: the connection, the engine's Log service, the read ends of the
   * plugin's stdout and stderr, and the write end of its stdin.
   */
  engineGone(): Promise<void>;
  /** Ends the client, the process (SIGKILL, if still running) and the engine stand-in. */
  close(): Promise<void>;
}

/** How long a plugin may take to print its port before the test gives up on it. */
const PORT_WITHIN_MS = 30_000;

const repoRoot = path.resolve(__dirname, "../..");

/**
 * How a test starts the plugin's process: Node's arguments before the engine's address (bundledPlugin or
 * PLUGIN_FROM_SOURCE).
 */
export type PluginEntry = readonly string[];

/**
 * The plugin bundled from the working tree's sources as its release bundles it (scripts/plugin-release.ts),
 * into `dir`. A file that starts the plugin many times bundles it once (a second or so) instead of having
 * ts-node compile every source at each start (seconds each). c8 cannot count a bundle's coverage on the
 * sources: the file's one test that counts them starts PLUGIN_FROM_SOURCE.
 */
export function bundledPlugin(dir: string): PluginEntry {
  const outfile = path.join(dir, "pulumi-resource-codesec.js");
  // Loaded here: esbuild is for the files that bundle, not every user of this module.
  const { bundlePlugin } =
    require("../../scripts/plugin-release") as typeof import("../../scripts/plugin-release");
  bundlePlugin(outfile, { quiet: true });
  return [outfile];
}

/** provider/native/main.ts run from source through ts-node: its process's coverage counts on the sources. */
export const PLUGIN_FROM_SOURCE: PluginEntry = [
  "--conditions=codesec-source",
  "--require",
  "ts-node/register/transpile-only",
  path.join(repoRoot, "provider/native/main.ts"),
];

/**
 * Starts the plugin's `entry` in a process of its own as the engine does: the engine's address as its
 * argument, stdin a pipe the engine holds (`stdin: "pipe"`, the default) or none (`"ignore"`), `env` added
 * to the test's environment; resolves once it has printed its port. Its client connects through a TCP
 * relay on 127.0.0.1, so that a test can cut the connection as the engine does.
 */
export async function spawnPlugin(options: {
  entry: PluginEntry;
  stdin?: "pipe" | "ignore";
  env?: NodeJS.ProcessEnv;
}): Promise<PluginProcess> {
  const logs: LoggedMessage[] = [];
  const engine = await startEngine(logs);
  const child = spawn(process.execPath, [...options.entry, engine.address], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: [options.stdin ?? "pipe", "pipe", "pipe"],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.once("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        if (out.includes("\n")) resolve(Number(out.split("\n")[0]));
      });
      setTimeout(
        () => reject(new Error(`no port from the plugin within ${PORT_WITHIN_MS} ms: ${stderr}`)),
        PORT_WITHIN_MS,
      ).unref();
      void exited.then(({ code }) =>
        reject(new Error(`the plugin exited ${code} before its port: ${stderr}`)),
      );
    });
  } catch (error) {
    await kill();
    await engine.close();
    throw error;
  }
  const relay = await startRelay(port);
  const client = pluginClient(relay.port);
  return {
    child,
    client,
    port,
    logs,
    exited,
    dropConnection: () => relay.cut(),
    engineGone: async () => {
      relay.cut();
      await engine.close();
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin?.end();
    },
    close: async () => {
      client.close();
      relay.cut();
      await kill();
      await engine.close();
    },
  };
}

/** A TCP relay on 127.0.0.1 to `port`; `cut` destroys its connections and stops it (safe to call twice). */
async function startRelay(port: number): Promise<{ port: number; cut(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(port, "127.0.0.1");
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("error", () => undefined); // the other side cut: both are destroyed below
      socket.on("close", () => {
        sockets.delete(socket);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      if (server.listening) server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** A fresh plugin for each test of the enclosing suite. */
export function usePlugin(): () => PluginHandle {
  let current: (PluginHandle & { close(): Promise<void> }) | undefined;
  beforeEach(async () => {
    current = await startPlugin();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error("usePlugin(): the plugin exists only while a test runs");
    return current;
  };
}

/** A value as the engine sends a secret. */
export function secret(value: unknown): Record<string, unknown> {
  return { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

/** Properties as the engine sends them (values may be `secret(...)` or UNKNOWN_VALUE). */
export function struct(values: Record<string, unknown>): Struct {
  return toStruct(values);
}

/** Properties as the plugin answered them: plain values and which were secret. */
export function props(value: Struct | undefined): PropertyBag {
  return fromStruct(value);
}

/**
 * `urn:pulumi:test::codesec-test::pulumi:providers:codesec::<name>`: `default` or `default_<version>...` is
 * the default provider (the engine's names of it), any other name an explicit Provider.
 */
export function providerUrn(name: string): string {
  return `urn:pulumi:test::codesec-test::pulumi:providers:codesec::${name}`;
}

/**
 * Configures the plugin as the engine does, from the provider's inputs (`args`); `providerName` sets the
 * provider's URN and name as the engine sends them (`default_0_5_0` for the default provider, a Provider
 * resource's own name for an explicit one), else none is sent, as by an older engine.
 */
export async function configure(
  plugin: PluginClient,
  inputs: Record<string, unknown>,
  providerName?: string,
): Promise<void> {
  const request = new provider.ConfigureRequest()
    .setArgs(struct(inputs))
    .setAcceptsecrets(true)
    .setAcceptresources(true)
    .setType("pulumi:providers:codesec");
  if (providerName !== undefined) request.setUrn(providerUrn(providerName)).setName(providerName);
  await plugin.configure(request);
}

/** `urn:pulumi:test::codesec-test::codesec:index:<kind>::<name>` */
export function urnOf(kind: string, name = "r"): string {
  return `urn:pulumi:test::codesec-test::codesec:index:${kind}::${name}`;
}

/** The gRPC error a call rejected with. */
export async function rejection(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as grpc.ServiceError;
  }
  throw new Error("expected the call to fail");
}
