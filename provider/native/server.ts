/**
 * The plugin's gRPC server: the ResourceProvider service on a free port of 127.0.0.1 (the engine reads
 * the port from the plugin's first line of output, main.ts). Tests start it in their own process.
 */
import * as grpc from "@grpc/grpc-js";
import { newPluginState, type PluginState } from "./pluginState";
import { ResourceProviderService } from "./protocol";
import { resourceProviderService } from "./service";

export interface PluginServer {
  readonly port: number;
  readonly state: PluginState;
  /** Stops accepting calls and resolves once those under way have finished; safe to call twice. */
  close(): Promise<void>;
}

/** Starts the server; `engineAddress` is where the engine's Log service listens (the plugin's argument). */
export async function startPluginServer(options: { engineAddress?: string } = {}): Promise<PluginServer> {
  const state = newPluginState(options.engineAddress);
  // The engine sends whole schemas and large states: no message size bound of gRPC's default 4 MiB.
  const server = new grpc.Server({
    "grpc.max_receive_message_length": -1,
    "grpc.max_send_message_length": -1,
  });
  server.addService(ResourceProviderService, resourceProviderService(state));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  let closed: Promise<void> | undefined;
  return {
    port,
    state,
    close() {
      // tryShutdown waits for the calls of a connection still open; a call whose caller has gone (the
      // engine closes its connection before it stops the plugin) is waited for through state.calls. Then
      // the engine's log client, which those calls may still use.
      closed ??= new Promise<void>((resolve) => server.tryShutdown(() => resolve()))
        .then(() => Promise.allSettled(state.calls))
        .then(() => state.engine.close());
      return closed;
    },
  };
}
