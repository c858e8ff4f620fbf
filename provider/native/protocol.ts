/**
 * The engine's gRPC protocol, as the service definitions @pulumi/pulumi ships (generated from
 * pulumi/proto): the ResourceProvider service this plugin implements, the Engine service it logs through,
 * and the messages of both. One place imports them, so the plugin loads these files and none of the
 * Pulumi runtime.
 */
export * as provider from "@pulumi/pulumi/proto/provider_pb";
export { ResourceProviderService, ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
export type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
export { PluginAttach, PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
export { EngineClient, EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
export type { IEngineServer } from "@pulumi/pulumi/proto/engine_grpc_pb";
export { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
export { Status } from "@pulumi/pulumi/proto/status_pb";
export { Empty } from "google-protobuf/google/protobuf/empty_pb";
export { Any } from "google-protobuf/google/protobuf/any_pb";
