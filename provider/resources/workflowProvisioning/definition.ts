/**
 * `codesec.WorkflowProvisioning`: the platform's CI workflow in the repositories of matching projects. Its
 * one definition: every field, what a change to it does, its id and import rule, and its implementation
 * (./implementation.ts).
 */
import { describeOperation } from "../../../api/operations";
import { Type } from "../../../api/typeBuilder";
import { GhaOptions, ProjectIds, ProvisionError, ProvisionFilters } from "../../../api/schemas/provisioning";
import { defineResource, type CheckedInputsOf, type InputsOf, type StateOf } from "../definition";
import { connectionField, deploymentIdField, platformOutput, triggersField } from "../commonFields";
import { workflowProvisioningImplementation } from "./implementation";

const inputs = {
  deploymentId: deploymentIdField,
  filters: {
    schema: Type.Optional(ProvisionFilters),
    description:
      "Which projects' repositories receive the workflow (`search`, `codeAccess`, `lastScanSince`, " +
      "`setup`, `archived`, `ids`, `hasSmsSetup`, `isScmRepository`, `invertSearch`, " +
      "`isLocalScanProject`, `tagId`); every eligible project when absent.",
    onChange: "update",
  },
  excludeIds: {
    schema: Type.Optional(ProjectIds),
    description: "Project ids to leave out even when they match `filters`.",
    onChange: "update",
  },
  ghaOptions: {
    schema: Type.Optional(GhaOptions),
    description:
      "Options of the generated GitHub Actions workflow (`publishUrl`, `prEnabled`, `prSendComments`, " +
      "`pushEnabled`, `pushBranches`, `pushPaths`, `cronEnabled`, `useSelfHostedRunners`).",
    onChange: "update",
  },
  allowPartialFailure: {
    schema: Type.Optional(Type.Boolean()),
    description:
      "When the platform's answer lists `errors`, record them in the `errors` output instead of failing " +
      "the operation.",
    onChange: "record",
    default: false,
  },
  triggers: triggersField("provisions again"),
  connection: connectionField,
} as const;

const outputs = {
  repoFileUrls: {
    schema: Type.Record(Type.String(), Type.String()),
    description: "Project id -> URL of the workflow file written into its repository, from the last apply.",
  },
  errors: {
    schema: Type.Array(ProvisionError),
    description:
      "Failures the platform reported in the last apply (`code`, `message`, `ids`); only kept when " +
      "`allowPartialFailure` is true, otherwise such an apply fails.",
  },
  platform: platformOutput,
} as const;

export type WorkflowProvisioningInputs = InputsOf<typeof inputs>;
/** The inputs as `check` returns them: `allowPartialFailure` is always set. */
export type CheckedWorkflowProvisioningInputs = CheckedInputsOf<typeof inputs>;
export type WorkflowProvisioningState = StateOf<typeof inputs, typeof outputs>;

export const workflowProvisioningDefinition = defineResource({
  name: "WorkflowProvisioning",
  description:
    "Adds the platform's CI workflow to the repositories of the projects that match `filters`. " +
    "A change to `filters`, `excludeIds`, `ghaOptions` or `triggers` provisions again. When the " +
    "platform reports errors the operation fails listing each code, message and ids, unless " +
    "`allowPartialFailure` records them in `errors`. The platform cannot read a provisioning back or " +
    "remove it: refresh keeps the state, and destroy only removes the resource from the stack (the " +
    "workflow files stay in the repositories); change `triggers` to apply again.",
  operations: describeOperation("provisionWorkflows"),
  getExample: `// Refused: the platform cannot read a provisioning back, so there is nothing to look up.
const found = codesec.WorkflowProvisioning.get("wf", "1001/provisioning-<uuid>");`,
  idParts: ["deploymentId", "provisioning-<uuid>"],
  inputs,
  outputs,
  importRule: {
    kind: "refused",
    why:
      "the platform has no operation that reads a provisioning back (docs/drift.md), so there is nothing to " +
      "import it from. Declare it in the program instead: creating it provisions (provisioning is idempotent).",
  },
  unseenByRefresh: {
    why: "the platform has no read operation for workflow provisioning",
    visibility: "none",
  },
  implementation: workflowProvisioningImplementation,
});
