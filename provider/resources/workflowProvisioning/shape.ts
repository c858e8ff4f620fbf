/** The shape of `codesec.WorkflowProvisioning`: written once, used for the class types and for `check`. */
import { Type, type Static } from "@sinclair/typebox";
import { NumericId } from "../../../api/schemas/common";
import { GhaOptions, ProjectIds, ProvisionError, ProvisionFilters } from "../../../api/schemas/provisioning";
import { ConnectionInput } from "../../connection";

export const WorkflowProvisioningInputs = Type.Object(
  {
    /** Deployment (organization) id. Changing it replaces the resource. */
    deploymentId: NumericId,
    /** Which projects' repositories receive the workflow. */
    filters: Type.Optional(ProvisionFilters),
    /** Project ids to leave out even when they match `filters`. */
    excludeIds: Type.Optional(ProjectIds),
    /** Options of the generated GitHub Actions workflow. */
    ghaOptions: Type.Optional(GhaOptions),
    /** Record a result that lists `errors` instead of failing the operation. Default false. */
    allowPartialFailure: Type.Optional(Type.Boolean()),
    /** Any value; changing it provisions again (the platform cannot be read back). */
    triggers: Type.Optional(Type.Unknown()),
    /** Which connection to use: a name from stack config codesec:connections. Never diffed. */
    connection: Type.Optional(ConnectionInput),
  },
  { additionalProperties: false },
);
export type WorkflowProvisioningInputs = Static<typeof WorkflowProvisioningInputs>;

export const WorkflowProvisioningResult = Type.Object({
  /** Project id -> URL of the workflow file written into its repository, from the last apply. */
  repoFileUrls: Type.Record(Type.String(), Type.String()),
  /** Failures the platform reported in the last apply (only kept when `allowPartialFailure`). */
  errors: Type.Array(ProvisionError),
});
export type WorkflowProvisioningState = WorkflowProvisioningInputs &
  Static<typeof WorkflowProvisioningResult>;

export const WORKFLOW_PROVISIONING_IDENTITY = ["deploymentId"] as const;
/** A change to one of these provisions again (operation 2). */
export const WORKFLOW_PROVISIONING_REAPPLY = ["filters", "excludeIds", "ghaOptions", "triggers"] as const;
/** A change to one of these updates the state only. */
export const WORKFLOW_PROVISIONING_STATE_ONLY = ["allowPartialFailure"] as const;
export const WORKFLOW_PROVISIONING_OUTPUTS = ["repoFileUrls", "errors"] as const;
