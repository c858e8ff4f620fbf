/**
 * How a failed call answers the engine. A failure the package raises on purpose
 * (provider/errors.ts) answers with its message alone, which says what happened and what to
 * do; any other error is a bug and answers with its stack, for the report. The engine prints the answer
 * once, under the resource; the plugin writes nothing of it to its own output. A create or update that
 * applied part of its work (ResourceInitError) answers with gRPC's ErrorResourceInitFailed details, so
 * the engine records what was applied.
 */
import * as grpc from "@grpc/grpc-js";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { failureText, type ResourceInitError } from "../errors";
import { Any, Status, provider } from "./protocol";

/** An answer prepared as a gRPC status (a refusal with its own code, an init failure with details). */
export class StatusError extends Error {
  constructor(readonly status: grpc.ServerErrorResponse) {
    super(status.message);
  }
}

/** The status of a call that failed with `error`. */
export function failureStatus(error: unknown): grpc.ServerErrorResponse {
  if (error instanceof StatusError) return error.status;
  return { name: "Error", message: failureText(error), code: grpc.status.UNKNOWN };
}

/** The status of a failed create or update whose applied part the engine records (`properties`). */
export function initFailureStatus(error: ResourceInitError, properties: Struct): StatusError {
  const detail = new provider.ErrorResourceInitFailed();
  detail.setId(error.id);
  detail.setProperties(properties);
  detail.setReasonsList(error.reasons);
  const packed = new Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(error.message);
  status.addDetails(packed);
  // gRPC's rich error model: the details travel in this trailer, which the engine's Go client decodes.
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return new StatusError({ name: error.name, message: error.message, code: grpc.status.UNKNOWN, metadata });
}

/** A method this plugin does not implement (the engine falls back where it can). */
export function unimplemented<Request, Response>(method: string): grpc.handleUnaryCall<Request, Response> {
  return (_call, callback) =>
    callback({
      name: "Error",
      message: `pulumi-codesec does not implement ${method}`,
      code: grpc.status.UNIMPLEMENTED,
    });
}

/** A unary method from an async handler: its result answers, its failure answers as above. */
export function unary<Request, Response>(
  handler: (request: Request) => Promise<Response>,
): grpc.handleUnaryCall<Request, Response> {
  return (call, callback) => {
    handler(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => callback(failureStatus(error)),
    );
  };
}
