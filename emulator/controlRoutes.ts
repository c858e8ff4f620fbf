/**
 * The control surface over HTTP: a Fastify plugin registered under `/__emulator` that exposes the
 * functions of `EmulatorControl` (./control). Being its own encapsulated plugin is what keeps the API's
 * machinery off it: the request log and its counters, faults, the rate limit and authentication belong to
 * the operations' plugin (./apiRoutes). `GET /__emulator/` lists the routes as they are registered.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest, RawServerDefault } from "fastify";
import {
  CONTROL_PREFIX,
  CredentialRequest,
  CredentialRevocation,
  NotificationRulesGeneration,
  ScmAppEdit,
  ScmAppRequestCreate,
  UserRoleEdit,
  type EmulatorControl,
} from "./control";
import { answerNotFound, apiError } from "./errors";
import { FaultSpec } from "./faults";
import { pathOf } from "./urlPath";
import type { TypeBoxTypeProvider } from "./typeProvider";

/** One line of `GET /__emulator/`: the full path in the docs' `{param}` form. */
export interface ControlRouteDescription {
  method: string;
  path: string;
  summary: string;
}

/** The media type of a Content-Type header (`application/json; charset=utf-8` -> `application/json`). */
function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Refuses (415) a request without a JSON content type, before its body is read. A web page can make the
 * browser send a cross-site POST without asking first only with a form's or text/plain's content type (or
 * none); with application/json the browser must ask (a CORS preflight), which the emulator never grants.
 */
async function requireJsonContentType(request: FastifyRequest): Promise<void> {
  const given = request.headers["content-type"];
  if (mediaTypeOf(given) === "application/json") return;
  throw apiError(
    "UNSUPPORTED_MEDIA_TYPE",
    `${request.method} ${pathOf(request.url)} changes the emulator's state, so it needs ` +
      `"content-type: application/json" (the body may be empty); ` +
      `${given === undefined ? "this request has none" : `got ${JSON.stringify(given.slice(0, 200))}`}`,
  );
}

const RequestIdParams = Type.Object({ requestId: Type.String({ minLength: 1 }) });
const UserIdParams = Type.Object({ userId: Type.String({ minLength: 1 }) });

/** Options of the control-surface plugin. */
export interface ControlRoutesOptions {
  control: EmulatorControl;
}

/**
 * The control routes (no authentication, not in the request log, no faults). Every route but a GET
 * changes state and needs a JSON content type. Register it with `{ prefix: CONTROL_PREFIX }`.
 */
export const controlRoutes: FastifyPluginAsync<
  ControlRoutesOptions,
  RawServerDefault,
  TypeBoxTypeProvider
> = async (app, { control }) => {
  const index: ControlRouteDescription[] = [];
  app.addHook("onRoute", (route) => {
    const summary = route.config?.summary;
    if (route.method === "HEAD" || summary === undefined) return;
    const path = `${CONTROL_PREFIX}${(route.routePath || "/").replace(/:([A-Za-z]+)/g, "{$1}")}`;
    const method = String(route.method);
    // A route at the prefix itself is registered with and without its trailing slash: list it once.
    if (!index.some((entry) => entry.method === method && entry.path === path))
      index.push({ method, path, summary });
  });
  const changes = { onRequest: requireJsonContentType } as const;

  app.get(
    "/",
    { config: { summary: "this list of the control routes (method, path, what each does)" } },
    async () => ({
      routes: index,
    }),
  );
  app.post(
    "/reset",
    { ...changes, config: { summary: "restore the fixtures; clear faults and the request log" } },
    async () => {
      control.reset();
      return { reset: true };
    },
  );
  app.post(
    "/faults",
    {
      ...changes,
      schema: { body: FaultSpec },
      config: { summary: "arm a fault for the next matching API requests (body: FaultSpec)" },
    },
    async (request, reply) => reply.code(201).send({ fault: control.addFault(request.body) }),
  );
  app.get("/faults", { config: { summary: "the armed faults" } }, async () => ({ faults: control.faults() }));
  app.delete("/faults", { ...changes, config: { summary: "disarm every fault" } }, async () => {
    control.clearFaults();
    return { cleared: true };
  });
  app.get(
    "/requests",
    { config: { summary: "the API request log (never headers, bodies or credentials)" } },
    async () => ({ requests: control.requests() }),
  );
  app.delete("/requests", { ...changes, config: { summary: "empty the request log" } }, async () => {
    control.clearRequests();
    return { cleared: true };
  });
  app.get(
    "/requests/counts",
    {
      config: {
        summary:
          "how many API requests were answered, by operation and status, since the start or last reset",
      },
    },
    async () => control.requestCounts(),
  );
  app.delete(
    "/requests/counts",
    { ...changes, config: { summary: "start the request counters from zero" } },
    async () => {
      control.resetRequestCounts();
      return { cleared: true };
    },
  );
  app.post(
    "/notification-rules",
    {
      ...changes,
      schema: { body: NotificationRulesGeneration },
      config: {
        summary:
          "add generated notification rules to a deployment (body: {deploymentId, count}), for a large store",
      },
    },
    async (request, reply) => reply.code(201).send(control.addNotificationRules(request.body)),
  );
  app.patch(
    "/scm-apps/:requestId",
    {
      ...changes,
      schema: { params: RequestIdParams, body: ScmAppEdit },
      config: {
        summary: "edit an SCM app out of band, as the platform's UI would (drift seen by `getScmApp`)",
      },
    },
    async (request) => ({ app: control.editScmApp(request.params.requestId, request.body) }),
  );
  app.put(
    "/users/:userId/role",
    {
      ...changes,
      schema: { params: UserIdParams, body: UserRoleEdit },
      config: {
        summary: "set (or with role null remove) a user's role in a deployment, bypassing the API's rules",
      },
    },
    async (request) => control.setUserRole(request.params.userId, request.body),
  );
  app.post(
    "/scm-app-requests",
    {
      ...changes,
      schema: { body: ScmAppRequestCreate },
      config: { summary: "create a pending SCM app request; answers its id and one-time code" },
    },
    async (request, reply) => reply.code(201).send(control.createScmAppRequest(request.body)),
  );
  app.post(
    "/credentials",
    {
      ...changes,
      schema: { body: CredentialRequest },
      config: { summary: "mint an API token or a JWT for any existing user" },
    },
    async (request, reply) => reply.code(201).send(await control.mintCredential(request.body)),
  );
  app.post(
    "/credentials/revoke",
    {
      ...changes,
      schema: { body: CredentialRevocation },
      config: { summary: "revoke an API token by its value: it answers 401 from the next request on" },
    },
    async (request) => control.revokeCredential(request.body.credential),
  );
  app.get(
    "/state",
    {
      config: {
        summary: "the whole state without secrets (no token values, one-time codes or signing key)",
      },
    },
    async () => control.state(),
  );
  // A path under the prefix that no control route has: answered like any unknown path, but not logged.
  app.setNotFoundHandler(answerNotFound);
};
