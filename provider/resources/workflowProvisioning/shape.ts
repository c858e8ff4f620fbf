/** The shape of `codesec.WorkflowProvisioning`: written once, used for the class types, for `check` and for the docs. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../../../api/typeBuilder";
import { outputKeys } from "../../dynamic/resourceProps";
import { NumericId } from "../../../api/schemas/common";
import { GhaOptions, ProjectIds, ProvisionError, ProvisionFilters } from "../../../api/schemas/provisioning";
import { described } from "../../../api/schemaIssues";
import { ConnectionInput } from "../../connection";
import { PLATFORM_OUTPUT, type RecordedPlatform } from "../platformOutput";
import {
  CONNECTION_DESCRIPTION,
  DEPLOYMENT_ID_DESCRIPTION,
  TRIGGERS_DESCRIPTION,
} from "../fieldDescriptions";

export const WorkflowProvisioningInputs = Type.Object(
  {
    deploymentId: described(NumericId, DEPLOYMENT_ID_DESCRIPTION),
    filters: described(
      Type.Optional(ProvisionFilters),
      "Which projects' repositories receive the workflow (`search`, `codeAccess`, `lastScanSince`, " +
        "`setup`, `archived`, `ids`, `hasSmsSetup`, `isScmRepository`, `invertSearch`, " +
        "`isLocalScanProject`, `tagId`); every eligible project when absent.",
    ),
    excludeIds: described(
      Type.Optional(ProjectIds),
      "Project ids to leave out even when they match `filters`.",
    ),
    ghaOptions: described(
      Type.Optional(GhaOptions),
      "Options of the generated GitHub Actions workflow (`publishUrl`, `prEnabled`, `prSendComments`, " +
        "`pushEnabled`, `pushBranches`, `pushPaths`, `cronEnabled`, `useSelfHostedRunners`).",
    ),
    allowPartialFailure: described(
      Type.Optional(Type.Boolean()),
      "When the platform's answer lists `errors`, record them in the `errors` output instead of failing " +
        "the operation. Default false.",
    ),
    triggers: described(Type.Optional(Type.Unknown()), TRIGGERS_DESCRIPTION),
    connection: described(Type.Optional(ConnectionInput), CONNECTION_DESCRIPTION),
  },
  { additionalProperties: false },
);
export type WorkflowProvisioningInputs = Static<typeof WorkflowProvisioningInputs>;

export const WorkflowProvisioningResult = Type.Object({
  repoFileUrls: described(
    Type.Record(Type.String(), Type.String()),
    "Project id -> URL of the workflow file written into its repository, from the last apply.",
  ),
  errors: described(
    Type.Array(ProvisionError),
    "Failures the platform reported in the last apply (`code`, `message`, `ids`); only kept when " +
      "`allowPartialFailure` is true, otherwise such an apply fails.",
  ),
  ...PLATFORM_OUTPUT,
});
export type WorkflowProvisioningState = WorkflowProvisioningInputs &
  Omit<Static<typeof WorkflowProvisioningResult>, "platform"> &
  RecordedPlatform;

export const WORKFLOW_PROVISIONING_IDENTITY = ["deploymentId"] as const;
/** A change to one of these provisions again (operation 2). */
export const WORKFLOW_PROVISIONING_REAPPLY = ["filters", "excludeIds", "ghaOptions", "triggers"] as const;
/** A change to one of these updates the state only. */
export const WORKFLOW_PROVISIONING_STATE_ONLY = ["allowPartialFailure"] as const;
export const WORKFLOW_PROVISIONING_OUTPUTS = outputKeys(WorkflowProvisioningResult);
