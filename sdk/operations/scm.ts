/** Source code management: operations 3 (completeScmAppRequest), 4 (getScmApp), 5 (subscribeScmWebhook). */
import {
  CompleteScmAppRequestBody,
  ScmAppResponse,
  SubscribeScmWebhookResponse,
  type ScmApp,
} from "../schemas/scm";
import { argsObject, conformingBody, requiredString } from "../inputValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export interface CompleteScmAppRequestArgs {
  requestId: string;
  /** One-time secret: never logged, never echoed in errors. */
  code: string;
}

export interface GetScmAppArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  requestId: string;
}

export interface SubscribeScmWebhookArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** The SCM configuration id. */
  configId: string;
}

export async function completeScmAppRequest(
  transport: Transport,
  args: CompleteScmAppRequestArgs,
): Promise<ScmApp> {
  const op = "completeScmAppRequest";
  const input = argsObject(op, args, "{ requestId, code }");
  const requestId = requiredString(op, "requestId", input.requestId);
  const code = requiredString(op, "code", input.code, { secret: true });
  const body: CompleteScmAppRequestBody = { requestId, code };
  conformingBody(op, CompleteScmAppRequestBody, body);
  const path = buildPath(op, {});
  // The code is redacted from anything the server echoes back, like the token.
  const result = await transport.call({ operation: op, path, body, secrets: [code] });
  return validateResponse(ScmAppResponse, result, op).app;
}

export async function getScmApp(transport: Transport, args: GetScmAppArgs): Promise<ScmApp> {
  const input = argsObject("getScmApp", args, "{ deploymentId, requestId }");
  const path = buildPath("getScmApp", input);
  const result = await transport.call({ operation: "getScmApp", path });
  return validateResponse(ScmAppResponse, result, "getScmApp").app;
}

export async function subscribeScmWebhook(
  transport: Transport,
  args: SubscribeScmWebhookArgs,
): Promise<SubscribeScmWebhookResponse> {
  const input = argsObject("subscribeScmWebhook", args, "{ deploymentId, configId }");
  const path = buildPath("subscribeScmWebhook", input);
  // The spec gives this PUT no body.
  const result = await transport.call({ operation: "subscribeScmWebhook", path });
  return validateResponse(SubscribeScmWebhookResponse, result, "subscribeScmWebhook");
}
