/**
 * The platform's ten operations as a Fastify plugin, with what belongs to them and not to the control
 * surface: every request (an unknown path too) enters the request log and its counters on arrival, and
 * each operation's route applies faults, the rate limit and authentication (./operationRoute).
 */
import type { FastifyPluginAsync, RawServerDefault } from "fastify";
import { answerNotFound } from "./errors";
import type { EmulatorContext } from "./operationRoute";
import { registerNotificationRuleRoutes } from "./routes/notificationRules";
import { registerProvisioningRoutes } from "./routes/provisioning";
import { registerScanRoutes } from "./routes/scans";
import { registerScmRoutes } from "./routes/scm";
import { registerUserRoutes } from "./routes/users";
import type { TypeBoxTypeProvider } from "./typeProvider";

/** Options of the operations' plugin. */
export interface ApiRoutesOptions {
  ctx: EmulatorContext;
}

/** The ten operations, and the answer to paths that match none (logged like any API request). */
export const apiRoutes: FastifyPluginAsync<ApiRoutesOptions, RawServerDefault, TypeBoxTypeProvider> = async (
  app,
  { ctx },
) => {
  app.addHook("onRequest", async (request, reply) => {
    // Logged on arrival, so that no request is lost whatever happens to its answer or connection.
    ctx.tracker.arrive(request, reply, request.routeOptions.config.operation ?? null);
  });
  registerUserRoutes(app, ctx);
  registerProvisioningRoutes(app, ctx);
  registerScmRoutes(app, ctx);
  registerScanRoutes(app, ctx);
  registerNotificationRuleRoutes(app, ctx);
  app.setNotFoundHandler(answerNotFound);
};
