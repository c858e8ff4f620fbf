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

/** A plugin server and its client, for one test; `close` ends both and the engine stand-in. */
export async function startPlugin(): Promise<PluginHandle & { close(): Promise<void> }> {
  const logs: LoggedMessage[] = [];
  const engine = await startEngine(logs);
  const server = await startPluginServer({ engineAddress: engine.address });
  const client = new ResourceProviderClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  const handle = { server, logs } as PluginHandle & { close(): Promise<void> };
  for (const method of METHODS) {
    const fn = (client as unknown as Record<string, (request: unknown, callback: Callback<unknown>) => void>)[
      method
    ];
    (handle as unknown as Record<string, unknown>)[method] = (request: unknown) =>
      new Promise((resolve, reject) =>
        fn.call(client, request, (error, response) => (error ? reject(error) : resolve(response))),
      );
  }
  handle.close = async () => {
    client.close();
    await server.close();
    await engine.close();
  };
  return handle;
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
