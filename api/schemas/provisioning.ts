/** CI workflow provisioning: operation 2. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { DateTime, NumericId } from "./common";

/** Project ids, as in `filters.ids` and `excludeIds`: numeric, like every project id the API returns. */
export const ProjectIds = Type.Array(NumericId, { maxItems: 1000 });

export const ProvisionFilters = Type.Object(
  {
    search: Type.Optional(Type.String()),
    codeAccess: Type.Optional(Type.Boolean()),
    lastScanSince: Type.Optional(DateTime),
    setup: Type.Optional(Type.Boolean()),
    archived: Type.Optional(Type.Boolean()),
    ids: Type.Optional(ProjectIds),
    hasSmsSetup: Type.Optional(Type.Boolean()),
    isScmRepository: Type.Optional(Type.Boolean()),
    invertSearch: Type.Optional(Type.Boolean()),
    isLocalScanProject: Type.Optional(Type.Boolean()),
    tagId: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);
export type ProvisionFilters = Static<typeof ProvisionFilters>;

export const GhaOptions = Type.Object(
  {
    publishUrl: Type.Optional(Type.String()),
    prEnabled: Type.Optional(Type.Boolean()),
    prSendComments: Type.Optional(Type.Boolean()),
    pushEnabled: Type.Optional(Type.Boolean()),
    pushBranches: Type.Optional(Type.Array(Type.String())),
    pushPaths: Type.Optional(Type.Array(Type.String())),
    cronEnabled: Type.Optional(Type.Boolean()),
    useSelfHostedRunners: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type GhaOptions = Static<typeof GhaOptions>;

/** Body of operation 2 (POST .../repos/_provision). */
export const ProvisionBody = Type.Object(
  {
    deploymentId: NumericId,
    filters: Type.Optional(ProvisionFilters),
    excludeIds: Type.Optional(ProjectIds),
    ghaOptions: Type.Optional(GhaOptions),
  },
  { additionalProperties: false },
);
export type ProvisionBody = Static<typeof ProvisionBody>;

/** Arguments of `provisionWorkflows` (operation 2): the body without the repeated deploymentId. */
export const ProvisionWorkflowsArgs = Type.Object(
  {
    /** Numeric deployment id, as a string. */
    deploymentId: NumericId,
    /** Which projects' repositories receive the workflow; every eligible one when absent. */
    filters: Type.Optional(ProvisionFilters),
    /** Project ids to leave out even when they match `filters`. */
    excludeIds: Type.Optional(ProjectIds),
    /** Options of the generated GitHub Actions workflow. */
    ghaOptions: Type.Optional(GhaOptions),
  },
  { additionalProperties: false },
);
export type ProvisionWorkflowsArgs = Static<typeof ProvisionWorkflowsArgs>;

export const ProvisionError = Type.Object({
  /** A string enum; UPDATE_ERROR_CODE_BAD_REQUEST is the value the spec gives. Unknown codes are kept. */
  code: Type.String(),
  message: Type.String(),
  ids: Type.Array(Type.String()),
});
export type ProvisionError = Static<typeof ProvisionError>;

export const ProvisionResult = Type.Object({
  /** Repository (project) id -> URL of the workflow file written into that repository. */
  repoFileUrls: Type.Record(Type.String(), Type.String()),
  errors: Type.Array(ProvisionError),
});
export type ProvisionResult = Static<typeof ProvisionResult>;
