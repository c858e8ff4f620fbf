/** Source code management: `completeScmAppRequest`, `getScmApp` and `subscribeScmWebhook`. */
import { timingSafeEqual } from "node:crypto";
import {
  CompleteScmAppRequestBody,
  ScmAppResponse,
  SubscribeScmWebhookResponse,
  type ScmApp,
  requestLine,
  type ScmWebhookSubscription,
} from "pulumi-codesec/api";
import { requireRole } from "../auth";
import { apiError } from "../errors";
import type { FixtureScmAppRequest } from "../fixtureSchema";
import { operationRoute, type EmulatorContext } from "../operationRoute";
import type { EmulatorFastify } from "../typeProvider";
import { SCM_TYPES, SCM_WEBHOOK_EVENTS } from "../vocabulary";

/**
 * Webhook events subscribed per SCM type: pull requests and pushes trigger scans, installation events keep
 * the platform's view of the app's repositories current. Unknown types get the scan triggers only.
 */
export const WEBHOOK_EVENTS_BY_SCM_TYPE: Readonly<Record<string, readonly string[]>> = {
  [SCM_TYPES[0]]: SCM_WEBHOOK_EVENTS,
};
export const DEFAULT_WEBHOOK_EVENTS: readonly string[] = ["pull_request", "push"];

/** The events a configuration of `scmType` is subscribed to. */
export function webhookEventsFor(scmType: string): string[] {
  return [...(WEBHOOK_EVENTS_BY_SCM_TYPE[scmType] ?? DEFAULT_WEBHOOK_EVENTS)];
}

/** The API view of a request's app. */
export function scmAppOf(request: FixtureScmAppRequest): ScmApp {
  return { ...request.app, requestId: request.requestId };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerScmRoutes(app: EmulatorFastify, ctx: EmulatorContext): void {
  operationRoute(
    app,
    ctx,
    "completeScmAppRequest",
    { body: CompleteScmAppRequestBody, response: ScmAppResponse },
    ({ body, caller }) => {
      // No deployment in the path: the request decides, and the caller must be admin of its own deployment.
      requireRole(ctx.store, caller, caller.deploymentId, "admin");
      const request = ctx.store.scmAppRequest(body.requestId);
      // Another deployment's request answers like an unknown one, so request ids reveal nothing.
      if (!request || request.deploymentId !== caller.deploymentId) {
        throw apiError(
          "NOT_FOUND",
          `SCM app request ${body.requestId} not found in deployment ${caller.deploymentId}`,
        );
      }
      if (request.state === "completed") {
        const appPath = `/api/scm/deployments/${request.deploymentId}/scm_apps/${body.requestId}`;
        throw apiError(
          "FAILED_PRECONDITION",
          `SCM app request ${body.requestId} is already completed; its one-time code cannot be used again ` +
            `(read the app: ${requestLine("getScmApp", appPath)})`,
        );
      }
      if (!sameSecret(body.code, request.code)) {
        throw apiError(
          "INVALID_ARGUMENT",
          `body.code is not the one-time code of SCM app request ${body.requestId}`,
        );
      }
      const completed = ctx.store.completeScmAppRequest(body.requestId, ctx.now());
      return { app: scmAppOf(completed) };
    },
  );

  operationRoute(app, ctx, "getScmApp", { response: ScmAppResponse }, ({ params, caller }) => {
    const deploymentId = params.deploymentId;
    const requestId = params.requestId;
    requireRole(ctx.store, caller, deploymentId, "read");
    const request = ctx.store.scmAppRequest(requestId);
    if (!request || request.deploymentId !== deploymentId) {
      throw apiError("NOT_FOUND", `no SCM app with request id ${requestId} in deployment ${deploymentId}`);
    }
    if (request.state !== "completed") {
      throw apiError(
        "NOT_FOUND",
        `SCM app request ${requestId} is still pending: no app exists until ${requestLine("completeScmAppRequest")} completes it`,
      );
    }
    return { app: scmAppOf(request) };
  });

  operationRoute(
    app,
    ctx,
    "subscribeScmWebhook",
    { response: SubscribeScmWebhookResponse },
    ({ params, caller, request }) => {
      const deploymentId = params.deploymentId;
      const configId = params.configId;
      // "Body: none": nothing, or an empty JSON object, is accepted; anything else is a mistake worth
      // reporting.
      const body: unknown = request.body;
      if (
        body !== undefined &&
        !(typeof body === "object" && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)
      ) {
        throw apiError(
          "INVALID_ARGUMENT",
          `${requestLine("subscribeScmWebhook")} takes no request body (send none, or {})`,
        );
      }
      requireRole(ctx.store, caller, deploymentId, "admin");
      const config = ctx.store.scmConfiguration(deploymentId, configId);
      if (!config) {
        throw apiError("NOT_FOUND", `no SCM configuration ${configId} in deployment ${deploymentId}`);
      }
      const subscription: ScmWebhookSubscription = {
        scmUrl: config.scmUrl,
        events: webhookEventsFor(config.scmType),
      };
      const unchanged =
        config.subscription?.scmUrl === subscription.scmUrl &&
        config.subscription.events.join("\n") === subscription.events.join("\n");
      if (!unchanged) ctx.store.setSubscription(deploymentId, configId, subscription);
      return { deploymentId, configId, subscription };
    },
  );
}
