/**
 * The control surface, for tests, demos and benchmarks only (it is not part of the platform's API and needs
 * no credential): reset to the fixtures, inject faults, read the request log and the request counters,
 * make out-of-band edits the platform's UI would make, mint and revoke credentials, load a large store
 * (generated notification rules), and read the state without its secrets.
 *
 * `EmulatorControl` is the in-process form (`handle.control`); ./controlRoutes exposes the same functions
 * over HTTP under `/__emulator/`.
 */
import { randomBytes, randomInt } from "node:crypto";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import {
  NumericId,
  OrgRole,
  firstSchemaIssue,
  issueMessage,
  secretValue,
  type ScmApp,
} from "pulumi-codesec/api";
import { DEFAULT_JWT_LIFETIME_SECONDS, isJwtShaped, signUserJwt } from "./auth";
import { apiError } from "./errors";
import { FaultSpec, type ArmedFault, type FaultInjector } from "./faults";
import { ScmAppDetails, type FixtureScmAppRequest } from "./fixtureSchema";
import type { RateLimiter } from "./rateLimit";
import type { RequestCounter, RequestCounts } from "./requestCounts";
import type { RequestLog, RequestLogEntry } from "./requestLog";
import { scmAppOf } from "./routes/scm";
import type { EmulatorStore, RedactedState } from "./store";
import { SCM_TYPES } from "./vocabulary";

/** Prefix of every control-surface path. */
export const CONTROL_PREFIX = "/__emulator";

/** Body of `PATCH /__emulator/scm-apps/{requestId}`: any fields of the app except its request id. */
export const ScmAppEdit = Type.Partial(ScmAppDetails, { additionalProperties: false, minProperties: 1 });
export type ScmAppEdit = Static<typeof ScmAppEdit>;

/** Body of `PUT /__emulator/users/{userId}/role`; `role: null` removes the user from the deployment. */
export const UserRoleEdit = Type.Object(
  {
    deploymentId: NumericId,
    role: Type.Union([OrgRole, Type.Null()], { description: "an organization role or null" }),
  },
  { additionalProperties: false },
);
export type UserRoleEdit = Static<typeof UserRoleEdit>;

/** Body of `POST /__emulator/scm-app-requests`: a new pending request (optionally with app details). */
export const ScmAppRequestCreate = Type.Object(
  { deploymentId: NumericId, app: Type.Optional(ScmAppEdit) },
  { additionalProperties: false },
);
export type ScmAppRequestCreate = Static<typeof ScmAppRequestCreate>;

/** Most rules one `addNotificationRules` call may add (a bound on one request's work and memory). */
export const GENERATED_RULES_MAX = 100_000;

/** Body of `POST /__emulator/notification-rules`: how many generated rules to add to which deployment. */
export const NotificationRulesGeneration = Type.Object(
  {
    deploymentId: NumericId,
    count: Type.Integer({ minimum: 1, maximum: GENERATED_RULES_MAX }),
  },
  { additionalProperties: false },
);
export type NotificationRulesGeneration = Static<typeof NotificationRulesGeneration>;

/** What `addNotificationRules` answers: the ids the new rules took (consecutive). */
export interface GeneratedNotificationRules {
  deploymentId: string;
  added: number;
  firstId: number;
  lastId: number;
}

const TEN_YEARS = 10 * 365 * 24 * 60 * 60;

/**
 * Body of `POST /__emulator/credentials`. A negative `expiresInSeconds` mints an already-expired credential.
 */
export const CredentialRequest = Type.Object(
  {
    deploymentId: NumericId,
    userId: Type.String({ minLength: 1 }),
    kind: Type.Union([Type.Literal("apiToken"), Type.Literal("jwt")], { description: "apiToken or jwt" }),
    /** API tokens only; default true. */
    webApi: Type.Optional(Type.Boolean()),
    /** API tokens only; default false. */
    scoped: Type.Optional(Type.Boolean()),
    /** Default: 24 hours for a JWT, no expiry for an API token. */
    expiresInSeconds: Type.Optional(Type.Integer({ minimum: -TEN_YEARS, maximum: TEN_YEARS })),
  },
  { additionalProperties: false },
);
export type CredentialRequest = Static<typeof CredentialRequest>;

/**
 * Body of `POST /__emulator/credentials/revoke`: the value of an API token (a secret, never logged or
 * echoed).
 */
export const CredentialRevocation = Type.Object(
  { credential: secretValue(Type.String({ minLength: 1, maxLength: 4096 })) },
  { additionalProperties: false },
);
export type CredentialRevocation = Static<typeof CredentialRevocation>;

/**
 * Checks an in-process argument against the schema the HTTP route validates with (400 otherwise), worded
 * by `pulumi-codesec/api`'s one formatter of schema failures. A revocation's credential is never shown.
 */
function checkArgument<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  const issue = firstSchemaIssue(schema, value);
  if (issue !== undefined) {
    const subject = { name: what, noun: "field", secretFields: ["credential"] } as const;
    throw apiError("INVALID_ARGUMENT", `invalid ${what}: ${issueMessage(issue, subject)}`);
  }
  return value;
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** What the control surface acts on. */
export interface ControlledParts {
  store: EmulatorStore;
  faults: FaultInjector;
  requestLog: RequestLog;
  requestCounter: RequestCounter;
  /** Present when a rate limit is set. */
  rateLimiter: RateLimiter | undefined;
}

/** In-process access to the control surface (the same functions as the HTTP routes). */
export class EmulatorControl {
  private readonly store: EmulatorStore;
  private readonly faultInjector: FaultInjector;
  private readonly requestLog: RequestLog;
  private readonly requestCounter: RequestCounter;
  private readonly rateLimiter: RateLimiter | undefined;

  constructor(parts: ControlledParts) {
    this.store = parts.store;
    this.faultInjector = parts.faults;
    this.requestLog = parts.requestLog;
    this.requestCounter = parts.requestCounter;
    this.rateLimiter = parts.rateLimiter;
  }

  /**
   * Restores the fixtures (minted tokens, SCM app requests and generated rules are gone), clears faults,
   * the request log and the request counters, and fills the rate limit's buckets again.
   */
  reset(): void {
    this.store.reset();
    this.faultInjector.clear();
    this.requestLog.clear();
    this.requestCounter.reset();
    this.rateLimiter?.clear();
  }

  /** Arms a fault for the next `count` (default 1) matching API requests. */
  addFault(spec: FaultSpec): ArmedFault {
    return this.faultInjector.add(checkArgument(FaultSpec, spec, "fault"));
  }

  /** The armed faults. */
  faults(): ArmedFault[] {
    return this.faultInjector.list();
  }

  clearFaults(): void {
    this.faultInjector.clear();
  }

  /** The API requests answered so far (oldest first); never headers, bodies or credentials. */
  requests(): RequestLogEntry[] {
    return this.requestLog.list();
  }

  /** Empties the request log (the request counters go on counting). */
  clearRequests(): void {
    this.requestLog.clear();
  }

  /**
   * Every API request finished since the start or the last reset, by operation and status: unlike the
   * request log, not limited to the last 1,000 (e.g. `byStatus["429"]` counts the rate limit's refusals).
   */
  requestCounts(): RequestCounts {
    return this.requestCounter.read();
  }

  /** Starts the request counters from zero (the request log is kept). */
  resetRequestCounts(): void {
    this.requestCounter.reset();
  }

  /**
   * Adds `count` generated notification rules (1 to 100,000; channels slack, email, webhook and jira in turn,
   * every fifth one disabled) to a deployment, with ids after the highest rule id, in one change (saved
   * once with `--state`): the way to give the emulator a large store, e.g. for benchmarks of
   * `listNotificationRules` or of writes against a large state. `reset()` removes them.
   */
  addNotificationRules(generation: NotificationRulesGeneration): GeneratedNotificationRules {
    checkArgument(NotificationRulesGeneration, generation, "generation");
    if (!this.store.deployment(generation.deploymentId))
      throw apiError("NOT_FOUND", `no deployment ${generation.deploymentId}`);
    const ids = this.store.addNotificationRules(generation.deploymentId, generation.count);
    return { deploymentId: generation.deploymentId, added: generation.count, ...ids };
  }

  /** Changes fields of the SCM app behind `requestId`, as the platform's UI would (drift for `getScmApp`). */
  editScmApp(requestId: string, edit: ScmAppEdit): ScmApp {
    checkArgument(ScmAppEdit, edit, "edit");
    if (!this.store.scmAppRequest(requestId)) throw apiError("NOT_FOUND", `no SCM app request ${requestId}`);
    return scmAppOf(this.store.updateScmApp(requestId, edit));
  }

  /** Sets (or with `null` removes) a user's role in a deployment, bypassing the API's rules. */
  setUserRole(
    userId: string,
    edit: UserRoleEdit,
  ): { userId: string; deploymentId: string; role: UserRoleEdit["role"] } {
    checkArgument(UserRoleEdit, edit, "edit");
    if (!this.store.user(userId)) throw apiError("NOT_FOUND", `no user ${userId}`);
    if (!this.store.deployment(edit.deploymentId))
      throw apiError("NOT_FOUND", `no deployment ${edit.deploymentId}`);
    this.store.setRole(userId, edit.deploymentId, edit.role);
    return { userId, deploymentId: edit.deploymentId, role: edit.role };
  }

  /** Creates a new pending SCM app request and returns its id and one-time code. */
  createScmAppRequest(create: ScmAppRequestCreate): { requestId: string; code: string } {
    checkArgument(ScmAppRequestCreate, create, "request");
    const deployment = this.store.deployment(create.deploymentId);
    if (!deployment) throw apiError("NOT_FOUND", `no deployment ${create.deploymentId}`);
    const suffix = randomBytes(4).toString("hex");
    const baseUrl = this.store.scmConfigurations(deployment.id)[0]?.scmUrl ?? "https://scm.example.test";
    const request: FixtureScmAppRequest = {
      requestId: `apprq-${deployment.id}-${suffix}`,
      deploymentId: deployment.id,
      code: `otc-${randomBytes(12).toString("base64url")}`,
      state: "pending",
      app: {
        id: `scmapp-${deployment.id}-${suffix}`,
        slug: `codesec-${deployment.slug}-${suffix}`,
        appId: String(randomInt(100_000, 1_000_000)),
        scmType: SCM_TYPES[0],
        baseUrl,
        scmName: deployment.name,
        codeAccess: true,
        tenantId: `tenant-${deployment.name}`,
        ...create.app,
      },
    };
    this.store.addScmAppRequest(request);
    return { requestId: request.requestId, code: request.code };
  }

  /** Mints a credential for any user (even one without a role there, to test refusals). */
  async mintCredential(request: CredentialRequest): Promise<{ credential: string }> {
    checkArgument(CredentialRequest, request, "credential request");
    if (!this.store.deployment(request.deploymentId))
      throw apiError("NOT_FOUND", `no deployment ${request.deploymentId}`);
    if (!this.store.user(request.userId)) throw apiError("NOT_FOUND", `no user ${request.userId}`);
    if (request.kind === "jwt") {
      const credential = await signUserJwt(
        this.store.signingKey,
        { userId: request.userId, deploymentId: request.deploymentId },
        { expiresInSeconds: request.expiresInSeconds ?? DEFAULT_JWT_LIFETIME_SECONDS },
      );
      return { credential };
    }
    const suffix = randomBytes(12).toString("hex");
    const value = `cst_${request.deploymentId}_minted_${suffix}`;
    this.store.addApiToken({
      id: `tok-minted-${suffix.slice(0, 8)}`,
      value,
      name: "minted through the control surface",
      deploymentId: request.deploymentId,
      userId: request.userId,
      webApi: request.webApi ?? true,
      scoped: request.scoped ?? false,
      ...(request.expiresInSeconds !== undefined
        ? { expiresAt: isoSeconds(new Date(Date.now() + request.expiresInSeconds * 1000)) }
        : {}),
    });
    return { credential: value };
  }

  /**
   * Revokes the API token whose value is `credential`: from then on it answers 401 (for credential-rotation
   * tests). A JWT cannot be revoked; it expires. Error messages never repeat the value.
   */
  revokeCredential(credential: string): { revoked: true; tokenId: string } {
    checkArgument(CredentialRevocation, { credential }, "revocation");
    if (isJwtShaped(credential)) {
      throw apiError(
        "INVALID_ARGUMENT",
        "a JWT cannot be revoked: JWTs expire instead (mint one with a short expiresInSeconds); only API tokens can be revoked",
      );
    }
    const token = this.store.apiTokenByValue(credential);
    if (!token) throw apiError("NOT_FOUND", "no API token has this value");
    this.store.revokeApiToken(token.id, new Date());
    return { revoked: true, tokenId: token.id };
  }

  /** The whole state without any secret (token values, one-time codes, signing key). */
  state(): RedactedState {
    return this.store.redactedSnapshot();
  }
}
