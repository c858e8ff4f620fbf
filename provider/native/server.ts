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
  /**
   * Stops accepting calls and resolves once those under way have finished and answered (a connection that
   * would hold the stop longer is cut: closeServer); safe to call twice.
   */
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
      closed ??= closeServer(server, state);
      return closed;
    },
  };
}

/**
 * How long the server's graceful stop may still take once no call of the plugin is under way: the time for
 * the last answers to reach the engine. A connection can hold the graceful stop for ever: a stream whose
 * request never ends, or the engine's own connection when it closes it just before its SIGINT (grpc-js
 * then waits on a session whose socket is gone, and never returns). The engine gives a plugin 5 s from
 * its SIGINT, then kills it; a run whose plugin waited out that grace ended 5 s late, and the engine
 * reported a provider that "exited prematurely" (an `error:` in a run that succeeded: it prints that when
 * it closes a plugin whose Cancel it saw no answer to, whatever ended the plugin).
 */
const ANSWERS_FLUSH_MS = 250;

/**
 * Stops taking calls, waits for the calls under way (each bounded by its deadline; one whose caller has
 * gone is waited for too, so no write is cut in the middle), lets their answers go out for
 * ANSWERS_FLUSH_MS at most, then ends every connection, and the engine's log client last (those calls may
 * still use it).
 */
async function closeServer(server: grpc.Server, state: PluginState): Promise<void> {
  const graceful = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  await Promise.allSettled(state.calls);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([graceful, new Promise((resolve) => (timer = setTimeout(resolve, ANSWERS_FLUSH_MS)))]);
  clearTimeout(timer);
  server.forceShutdown();
  state.engine.close();
}
