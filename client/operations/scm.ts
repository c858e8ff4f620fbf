/** Source code management: `completeScmAppRequest`, `getScmApp` and `subscribeScmWebhook`. */
import {
  CompleteScmAppRequestArgs,
  GetScmAppArgs,
  ScmAppResponse,
  SubscribeScmWebhookArgs,
  SubscribeScmWebhookResponse,
  type CompleteScmAppRequestBody,
  type ScmApp,
} from "../../api/schemas/scm";
import { operationSubject, validateArguments } from "../argumentValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export async function completeScmAppRequest(
  transport: Transport,
  args: CompleteScmAppRequestArgs,
): Promise<ScmApp> {
  const op = "completeScmAppRequest";
  // The code is a one-time secret: never shown in a message, redacted from anything echoed back.
  const input = validateArguments(operationSubject(op, ["code"]), CompleteScmAppRequestArgs, args);
  const body: CompleteScmAppRequestBody = { requestId: input.requestId, code: input.code };
  const result = await transport.call({
    operation: op,
    path: buildPath(op, {}),
    body,
    secrets: [input.code],
  });
  return validateResponse(ScmAppResponse, result, op).app;
}

export async function getScmApp(transport: Transport, args: GetScmAppArgs): Promise<ScmApp> {
  const op = "getScmApp";
  const input = validateArguments(operationSubject(op), GetScmAppArgs, args);
  const result = await transport.call({ operation: op, path: buildPath(op, input) });
  return validateResponse(ScmAppResponse, result, op).app;
}

export async function subscribeScmWebhook(
  transport: Transport,
  args: SubscribeScmWebhookArgs,
): Promise<SubscribeScmWebhookResponse> {
  const op = "subscribeScmWebhook";
  const input = validateArguments(operationSubject(op), SubscribeScmWebhookArgs, args);
  // The spec gives this PUT no body.
  const result = await transport.call({ operation: op, path: buildPath(op, input) });
  return validateResponse(SubscribeScmWebhookResponse, result, op);
}

export type { CompleteScmAppRequestArgs, GetScmAppArgs, SubscribeScmWebhookArgs };
