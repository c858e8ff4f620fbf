/**
 * A request body as it goes on the wire, refused when it exceeds the platform's limit: the client
 * never sends a body the platform would turn away, and the provider's `check` runs the same function
 * on the body a resource will send, so preview and apply agree on it too.
 */
import { CodeSecInputError, messageSubject } from "./errors";
import { REQUEST_BODY_LIMIT_BYTES, type OperationKey } from "../api/operations";

/** The JSON text of `body`, or CodeSecInputError (field `body`) when it is above the platform's limit. */
export function serializeRequestBody(operation: OperationKey, body: unknown): string {
  const text = JSON.stringify(body);
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > REQUEST_BODY_LIMIT_BYTES) {
    throw new CodeSecInputError(
      "body",
      `${messageSubject(operation)}: the request body would be ${bytes} ` +
        `bytes, above the platform's limit of ${REQUEST_BODY_LIMIT_BYTES} bytes, so it is not sent. Send fewer ` +
        `or shorter values (for example, split a long id list across several calls).`,
      { operation },
    );
  }
  return text;
}
