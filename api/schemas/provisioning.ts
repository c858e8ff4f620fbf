/** CI workflow provisioning: `provisionWorkflows`. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { described } from "../schemaIssues";
import { DateTime, NumericId } from "./common";

/** Project ids, as in `filters.ids` and `excludeIds`: numeric, like every project id the API returns. */
export const ProjectIds = Type.Array(NumericId, { maxItems: 1000 });

// Which projects match: every filter given must match, one left out matches every project.
export const ProvisionFilters = Type.Object(
  {
    search: described(Type.Optional(Type.String()), "Projects whose name contains this text (any case)."),
    codeAccess: described(
      Type.Optional(Type.Boolean()),
      "Projects whose repository the platform can (true) or cannot (false) read.",
    ),
    lastScanSince: described(
      Type.Optional(DateTime),
      "Projects last scanned at or after this time (RFC 3339); never-scanned projects do not match.",
    ),
    setup: described(Type.Optional(Type.Boolean()), "Projects whose setup is (true) or is not (false) done."),
    archived: described(Type.Optional(Type.Boolean()), "Archived (true) or active (false) projects."),
    ids: described(Type.Optional(ProjectIds), "Only these project ids (numeric, at most 1000)."),
    hasSmsSetup: described(
      Type.Optional(Type.Boolean()),
      "Projects whose SMS setup is (true) or is not (false) done.",
    ),
    isScmRepository: described(
      Type.Optional(Type.Boolean()),
      "Projects that are (true) or are not (false) repositories of an SCM system.",
    ),
    invertSearch: described(
      Type.Optional(Type.Boolean()),
      "When true, `search` keeps the projects whose name does not contain its text; alone it has no effect.",
    ),
    isLocalScanProject: described(
      Type.Optional(Type.Boolean()),
      "Projects that are (true) or are not (false) local-scan projects (no repository to write a workflow into).",
    ),
    tagId: described(Type.Optional(Type.Integer()), "Projects carrying the tag of this id."),
  },
  { additionalProperties: false },
);
export type ProvisionFilters = Static<typeof ProvisionFilters>;

// The options of the GitHub Actions workflow; the platform's defaults for those left out.
export const GhaOptions = Type.Object(
  {
    publishUrl: described(
      Type.Optional(Type.String()),
      "Where the workflow publishes its results; the platform's default when absent.",
    ),
    prEnabled: described(Type.Optional(Type.Boolean()), "Whether the workflow runs on pull requests."),
    prSendComments: described(
      Type.Optional(Type.Boolean()),
      "Whether the workflow comments its findings on pull requests.",
    ),
    pushEnabled: described(Type.Optional(Type.Boolean()), "Whether the workflow runs on pushes."),
    pushBranches: described(
      Type.Optional(Type.Array(Type.String())),
      "The branches whose pushes run the workflow (GitHub Actions branch patterns, e.g. `main`, `release/*`).",
    ),
    pushPaths: described(
      Type.Optional(Type.Array(Type.String())),
      "Only pushes that change these paths run the workflow (GitHub Actions path patterns).",
    ),
    cronEnabled: described(Type.Optional(Type.Boolean()), "Whether the workflow also runs on a schedule."),
    useSelfHostedRunners: described(
      Type.Optional(Type.Boolean()),
      "Whether the workflow runs on the organization's self-hosted runners instead of GitHub-hosted ones.",
    ),
  },
  { additionalProperties: false },
);
export type GhaOptions = Static<typeof GhaOptions>;

/** Body of `provisionWorkflows` (POST .../repos/_provision). */
export const ProvisionBody = Type.Object(
  {
    /** Numeric deployment id, as a string (the path repeats it). */
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
export type ProvisionBody = Static<typeof ProvisionBody>;

/** Arguments of `provisionWorkflows`: the body's fields, one schema for both. */
export const ProvisionWorkflowsArgs = ProvisionBody;
export type ProvisionWorkflowsArgs = Static<typeof ProvisionWorkflowsArgs>;

export const ProvisionError = Type.Object({
  code: described(
    Type.String(),
    "What went wrong, e.g. `UPDATE_ERROR_CODE_BAD_REQUEST` (the value the spec gives; unknown codes are kept).",
  ),
  message: described(Type.String(), "The platform's explanation."),
  ids: described(Type.Array(Type.String()), "The project ids the error is about."),
});
export type ProvisionError = Static<typeof ProvisionError>;

export const ProvisionResult = Type.Object({
  /** Repository (project) id -> URL of the workflow file written into that repository. */
  repoFileUrls: Type.Record(Type.String(), Type.String()),
  errors: Type.Array(ProvisionError),
});
export type ProvisionResult = Static<typeof ProvisionResult>;
