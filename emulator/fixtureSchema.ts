/**
 * The shape of a fixture set: the data the emulator starts from (and the `data` of a `--state` file). API
 * shapes (Scan, ScmApp, NotificationRule, ...) come from `api/schemas`; the wrappers here only add what the
 * platform keeps behind them (owning deployment, roles, secrets, request state).
 */
import { Type, type Static, type TOptional } from "@sinclair/typebox";
import {
  AuthDetail,
  DateTime,
  GhaOptions,
  NotificationRule,
  NumericId,
  JoinableOrganization,
  OrgRole,
  Scan,
  ScmApp,
  ScmWebhookSubscription,
} from "pulumi-codesec/api";

const Id = Type.String({ minLength: 1, maxLength: 200 });

/** A deployment (organization) and what `listJoinableOrganizations` reports about it. */
export const FixtureDeployment = Type.Composite(
  [
    Type.Omit(JoinableOrganization, ["id"]),
    Type.Object({
      id: NumericId,
      /**
       * Users who may join this deployment (`listJoinableOrganizations` lists it for them while they are not
       * members).
       */
      joinableUserIds: Type.Array(Id),
    }),
  ],
  { additionalProperties: false },
);
export type FixtureDeployment = Static<typeof FixtureDeployment>;

/** A user, with the role it holds in each deployment it belongs to (deployment id -> role). */
export const FixtureUser = Type.Object(
  {
    id: Id,
    name: Type.String(),
    email: Type.String(),
    login: Type.String(),
    authDetails: Type.Array(AuthDetail),
    deletedAt: Type.Optional(DateTime),
    roles: Type.Record(Type.String({ pattern: "^[0-9]+$" }), OrgRole),
  },
  { additionalProperties: false },
);
export type FixtureUser = Static<typeof FixtureUser>;

/** An API token (opaque bearer string) of one user in one deployment. `value` is a secret. */
export const FixtureApiToken = Type.Object(
  {
    id: Id,
    value: Type.String({ minLength: 16, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$" }),
    name: Type.String(),
    deploymentId: NumericId,
    userId: Id,
    /** The "Web API" permission of the organization's token settings. */
    webApi: Type.Boolean(),
    /** Restricted to limited scopes of access (such tokens cannot call the web API). */
    scoped: Type.Boolean(),
    expiresAt: Type.Optional(DateTime),
    /** Set when the token was revoked (through the control surface); it then answers 401. */
    revokedAt: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);
export type FixtureApiToken = Static<typeof FixtureApiToken>;

/** The CI workflow file that `provisionWorkflows` wrote into a project's repository. */
export const ProvisionedWorkflow = Type.Object(
  { fileUrl: Type.String(), provisionedAt: DateTime, ghaOptions: GhaOptions },
  { additionalProperties: false },
);
export type ProvisionedWorkflow = Static<typeof ProvisionedWorkflow>;

/** A project (normally one per repository). */
export const FixtureProject = Type.Object(
  {
    id: NumericId,
    deploymentId: NumericId,
    name: Type.String(),
    /** Web address of the repository, `<scm_base_url>/<org>/<repo>`; absent for local-scan projects. */
    repoUrl: Type.Optional(Type.String()),
    defaultBranch: Type.Optional(Type.String()),
    codeAccess: Type.Boolean(),
    setup: Type.Boolean(),
    archived: Type.Boolean(),
    hasSmsSetup: Type.Boolean(),
    isScmRepository: Type.Boolean(),
    isLocalScanProject: Type.Boolean(),
    tagIds: Type.Array(Type.Integer()),
    lastScanAt: Type.Optional(DateTime),
    workflow: Type.Optional(ProvisionedWorkflow),
  },
  { additionalProperties: false },
);
export type FixtureProject = Static<typeof FixtureProject>;

export const FixtureBranch = Type.Object(
  { id: Type.Integer({ minimum: 0 }), projectId: NumericId, name: Type.String() },
  { additionalProperties: false },
);
export type FixtureBranch = Static<typeof FixtureBranch>;

/** An SCM configuration of a deployment (the target of `subscribeScmWebhook`). */
export const FixtureScmConfiguration = Type.Object(
  {
    configId: Id,
    deploymentId: NumericId,
    scmType: Type.String(),
    scmUrl: Type.String(),
    subscription: Type.Optional(ScmWebhookSubscription),
  },
  { additionalProperties: false },
);
export type FixtureScmConfiguration = Static<typeof FixtureScmConfiguration>;

/** The SCM app a request produces once completed (`requestId` is the request's own). */
export const ScmAppDetails = Type.Omit(ScmApp, ["requestId"]);
export type ScmAppDetails = Static<typeof ScmAppDetails>;

/**
 * An SCM app request: pending until `completeScmAppRequest` presents its one-time `code` (a secret), then
 * completed, when `app` becomes readable through `getScmApp`.
 */
export const FixtureScmAppRequest = Type.Object(
  {
    requestId: Id,
    deploymentId: NumericId,
    code: Type.String({ minLength: 1 }),
    state: Type.Union([Type.Literal("pending"), Type.Literal("completed")]),
    completedAt: Type.Optional(DateTime),
    app: ScmAppDetails,
  },
  { additionalProperties: false },
);
export type FixtureScmAppRequest = Static<typeof FixtureScmAppRequest>;

/** A notification rule (snake_case, as the API) and the deployment it belongs to. */
export const FixtureNotificationRule = Type.Composite([
  NotificationRule,
  Type.Object({ deploymentId: NumericId }),
]);
export type FixtureNotificationRule = Static<typeof FixtureNotificationRule>;

/** Which objects `startEmulator` reports as the sample (and whose credentials it hands out). */
export const FixtureSample = Type.Object(
  {
    deploymentId: Type.Optional(NumericId),
    userId: Type.Optional(Id),
    memberUserId: Type.Optional(Id),
    apiTokenId: Type.Optional(Id),
    projectId: Type.Optional(NumericId),
    branchId: Type.Optional(NumericId),
    scanId: Type.Optional(NumericId),
    scmConfigId: Type.Optional(Id),
    scmAppRequestId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type FixtureSample = Static<typeof FixtureSample>;

/** The collections of a fixture set, by member name: the one list of the kinds a fixture set holds. */
const COLLECTIONS = {
  deployments: Type.Array(FixtureDeployment),
  users: Type.Array(FixtureUser),
  apiTokens: Type.Array(FixtureApiToken),
  projects: Type.Array(FixtureProject),
  branches: Type.Array(FixtureBranch),
  scans: Type.Array(Scan),
  scmConfigurations: Type.Array(FixtureScmConfiguration),
  scmAppRequests: Type.Array(FixtureScmAppRequest),
  notificationRules: Type.Array(FixtureNotificationRule),
};
type Collections = typeof COLLECTIONS;
type CollectionName = keyof Collections;
const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/**
 * A whole fixture set, every collection present: what the store holds; also the `data` of a `--state` file.
 */
export const FixtureSet = Type.Object(
  { ...COLLECTIONS, sample: Type.Optional(FixtureSample) },
  { additionalProperties: false },
);
export type FixtureSet = Static<typeof FixtureSet>;

/**
 * What a fixture file (or the `fixtures` option) holds: every collection is optional, an absent one being
 * empty, so that a small file seeds only what a test needs (say a deployment, an admin and its token).
 */
export const FixtureFile = Type.Object(
  {
    ...(Object.fromEntries(COLLECTION_NAMES.map((name) => [name, Type.Optional(COLLECTIONS[name])])) as {
      [K in CollectionName]: TOptional<Collections[K]>;
    }),
    sample: Type.Optional(FixtureSample),
  },
  { additionalProperties: false },
);
export type FixtureFile = Static<typeof FixtureFile>;

/** A fixture file's content with every absent collection made empty (`value` itself is not changed). */
export function withAllCollections(value: FixtureFile): FixtureSet {
  const complete: Record<string, unknown> = { ...value };
  for (const name of COLLECTION_NAMES) complete[name] = value[name] ?? [];
  return complete as FixtureSet;
}
