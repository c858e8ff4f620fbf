/**
 * Which failures the package raises on purpose: the client's errors (every `CodeSecError`), a connection
 * that cannot be used (`CodeSecConnectionError`, `MissingCredentialsError`, `PlatformMismatchError`) and
 * a create or update that applied part of its work (`ResourceInitError`: `ProvisioningPartialFailure`),
 * and a resource step that cannot go on (`CodeSecResourceError`: an SCM app that is not connected, an
 * import the platform cannot serve).
 * Their messages say what happened and what to do, so a user is shown the message alone. Any other error
 * is a bug, ours or a library's, and keeps its stack for the bug report. Applied where errors leave the
 * package: engine calls (provider/dynamic/failureOutput.ts; the native plugin's answers,
 * provider/native/rpcErrors.ts) and the functions' Output form (functions/invokeOptions.ts).
 */
import { CodeSecError } from "../client/errors";
import { CodeSecConnectionError } from "./connection";
import { ResourceInitError } from "./resources/initFailure";
import { CodeSecResourceError } from "./resources/resourceError";

/** Whether `error` is a failure the package raises on purpose (see the module comment). */
export function isExpectedFailure(error: unknown): boolean {
  return (
    error instanceof CodeSecError ||
    error instanceof CodeSecConnectionError ||
    error instanceof ResourceInitError ||
    error instanceof CodeSecResourceError
  );
}
