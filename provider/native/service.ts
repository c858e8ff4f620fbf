/**
 * The ResourceProvider service this plugin implements, method by method: the plugin's own (Handshake,
 * GetPluginInfo, GetSchema, Attach, Cancel), the provider's configuration (CheckConfig, DiffConfig,
 * Configure), the resources (resourceHandlers.ts) and the functions (functionHandlers.ts). What codesec has
 * no use for answers UNIMPLEMENTED (Parameterize, Call, Construct, List), or empty where the engine asks
 * every provider (GetMapping, GetMappings: codesec maps to no other tool's provider).
 */
import * as grpc from "@grpc/grpc-js";
import {
  configChanges,
  configFailures,
  configLookup,
  inputsFromVariables,
  SECRET_CONFIG_NAMES,
} from "./configuration";
import { containsUnknown } from "../resources/lifecycle";
import { functionHandlers } from "./functionHandlers";
import { pluginVersion, schemaText } from "./packageFiles";
import type { PluginState } from "./pluginState";
import { fromStruct, toStruct } from "./properties";
import { Empty, PluginInfo, provider, type IResourceProviderServer } from "./protocol";
import { resourceHandlers } from "./resourceHandlers";
import { unary, unimplemented } from "./rpcErrors";

/** What the plugin asks of the engine: secrets as marked values, resource references as their ids. */
const ACCEPT_SECRETS = true;
const ACCEPT_RESOURCES = false;

/**
 * The name of the explicit Provider resource being configured, from its name or URN; undefined for a
 * default provider, whose name starts with `default` (`default_0_5_0`: the engine's own rule), or when the
 * engine sends neither.
 */
export function explicitProviderName(nameOrUrn: string): string | undefined {
  const name = nameOrUrn.split("::").pop() ?? "";
  return name === "" || name.startsWith("default") ? undefined : name;
}

export function resourceProviderService(plugin: PluginState): IResourceProviderServer {
  return {
    handshake: unary(async (request: provider.ProviderHandshakeRequest) => {
      plugin.engine.setAddress(request.getEngineAddress());
      return new provider.ProviderHandshakeResponse()
        .setAcceptSecrets(ACCEPT_SECRETS)
        .setAcceptResources(ACCEPT_RESOURCES)
        .setAcceptOutputs(false);
    }),

    attach: unary(async (request: { getAddress(): string }) => {
      plugin.engine.setAddress(request.getAddress());
      return new Empty();
    }),

    getPluginInfo: unary(async () => new PluginInfo().setVersion(pluginVersion())),

    getSchema: unary(async () => new provider.GetSchemaResponse().setSchema(schemaText())),

    checkConfig: unary(async (request: provider.CheckRequest) => {
      const news = fromStruct(request.getNews()).values;
      const response = new provider.CheckResponse();
      // The credentials are stored as secrets, however they were set.
      response.setInputs(toStruct(news, (name) => SECRET_CONFIG_NAMES.includes(name)));
      for (const failure of configFailures(news)) {
        response.addFailures(
          new provider.CheckFailure().setProperty(failure.property).setReason(failure.reason),
        );
      }
      return response;
    }),

    diffConfig: unary(async (request: provider.DiffRequest) => {
      const olds = fromStruct(request.hasOldInputs() ? request.getOldInputs() : request.getOlds()).values;
      const changes = configChanges(olds, fromStruct(request.getNews()).values);
      const response = new provider.DiffResponse();
      response.setChanges(
        changes.length > 0
          ? provider.DiffResponse.DiffChanges.DIFF_SOME
          : provider.DiffResponse.DiffChanges.DIFF_NONE,
      );
      const detailed = response.getDetaileddiffMap();
      const kinds = {
        add: provider.PropertyDiff.Kind.ADD,
        delete: provider.PropertyDiff.Kind.DELETE,
        update: provider.PropertyDiff.Kind.UPDATE,
      };
      for (const change of changes)
        detailed.set(change.name, new provider.PropertyDiff().setKind(kinds[change.kind]).setInputdiff(true));
      response.setDiffsList(changes.map((change) => change.name));
      response.setHasdetaileddiff(true);
      return response;
    }),

    configure: unary(async (request: provider.ConfigureRequest) => {
      const inputs = request.hasArgs()
        ? fromStruct(request.getArgs()).values
        : inputsFromVariables(request.getVariablesMap().entries());
      plugin.config = configLookup(inputs);
      plugin.explicitProvider = explicitProviderName(request.getName() || request.getUrn() || "");
      // At preview, an explicit Provider's input from another resource's output arrives as the engine's
      // unknown placeholder: a setting to wait for, never a value (no request carries it).
      plugin.unknownConfig = Object.keys(inputs).filter((name) => containsUnknown(inputs[name]));
      return new provider.ConfigureResponse()
        .setAcceptsecrets(ACCEPT_SECRETS)
        .setAcceptresources(ACCEPT_RESOURCES)
        .setSupportspreview(true)
        .setAcceptoutputs(false);
    }),

    ...resourceHandlers(plugin),
    ...functionHandlers(plugin),

    cancel: unary(async () => {
      plugin.cancelled = true;
      return new Empty();
    }),

    getMapping: unary(async () => new provider.GetMappingResponse()),
    getMappings: unary(async () => new provider.GetMappingsResponse()),
    parameterize: unimplemented("Parameterize"),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    list: (call: grpc.ServerWritableStream<provider.ListRequest, provider.ListResponse>) =>
      call.destroy(
        Object.assign(new Error("pulumi-codesec does not implement List"), {
          code: grpc.status.UNIMPLEMENTED,
        }),
      ),
  };
}
