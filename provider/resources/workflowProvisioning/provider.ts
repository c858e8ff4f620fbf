/**
 * `codesec.WorkflowProvisioning`: operation 2 on create and whenever what it provisions changes. The
 * platform has no read or delete for it: state is kept on refresh and destroy only forgets it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { randomUUID } from "node:crypto";
import { provisionBody } from "../../../sdk/operations/provisioning";
import type { ProvisionResult, ProvisionWorkflowsArgs } from "../../../api/schemas/provisioning";
import {
  WORKFLOW_PROVISIONING_IDENTITY,
  WORKFLOW_PROVISIONING_REAPPLY,
  WORKFLOW_PROVISIONING_STATE_ONLY,
  WorkflowProvisioningInputs,
  type WorkflowProvisioningState,
} from "./shape";
import { checkAndDiff } from "../../dynamic/checkAndDiff";
import { sameValue } from "../../dynamic/diffing";
import { engineKeysOf, withoutEngineKeys } from "../../dynamic/inputValidation";
import { stateOnlyRead } from "../../dynamic/lookup";
import { formatResourceId } from "../../dynamic/resourceIds";
import { clientForResource, ownershipOfResource, platformOfResource } from "../../dynamic/runtimeCredentials";

const TYPE = "codesec:WorkflowProvisioning";

/**
 * Thrown when the platform reports errors and `allowPartialFailure` is not set. It carries `id` and
 * `properties`, which the engine records as a resource that failed to initialize: the repositories that
 * were provisioned stay in state (and the next `pulumi up` applies again) instead of being lost.
 */
export class ProvisioningPartialFailure extends Error {
  readonly reasons: string[];
  constructor(
    readonly id: string,
    readonly properties: WorkflowProvisioningState,
  ) {
    const reasons = properties.errors.map(
      (e) => `${e.code}: ${e.message}${e.ids.length > 0 ? ` (ids: ${e.ids.join(", ")})` : ""}`,
    );
    const provisioned = Object.keys(properties.repoFileUrls).length;
    super(
      `${TYPE}: the platform reported ${reasons.length} error(s) while provisioning ` +
        `(${provisioned} repositor${provisioned === 1 ? "y was" : "ies were"} provisioned):\n  - ` +
        reasons.join("\n  - ") +
        `\nFix the filters or the projects and run \`pulumi up\` again, or set allowPartialFailure: true ` +
        `to record these errors in the resource's \`errors\` output instead of failing.`,
    );
    this.name = "ProvisioningPartialFailure";
    this.reasons = reasons;
  }
}

/** The operation-2 arguments of a resource's inputs: the client validates them as `check` did. */
function provisionArgs(inputs: WorkflowProvisioningInputs): ProvisionWorkflowsArgs {
  const { deploymentId, filters, excludeIds, ghaOptions } = inputs;
  return { deploymentId, filters, excludeIds, ghaOptions };
}

async function provision(
  id: string,
  inputs: WorkflowProvisioningInputs,
  platform: string,
): Promise<WorkflowProvisioningState> {
  const result: ProvisionResult = await clientForResource(inputs).provisionWorkflows(provisionArgs(inputs));
  const state = {
    ...withoutEngineKeys(inputs),
    repoFileUrls: result.repoFileUrls,
    errors: result.errors,
    platform,
  };
  if (result.errors.length > 0 && inputs.allowPartialFailure !== true) {
    throw new ProvisioningPartialFailure(id, { ...state, ...engineKeysOf(inputs) });
  }
  return state;
}

export const workflowProvisioningProvider: pulumi.dynamic.ResourceProvider<
  WorkflowProvisioningInputs,
  WorkflowProvisioningState
> = {
  ...checkAndDiff(
    WorkflowProvisioningInputs,
    TYPE,
    {
      replaceOn: WORKFLOW_PROVISIONING_IDENTITY,
      updateOn: [...WORKFLOW_PROVISIONING_REAPPLY, ...WORKFLOW_PROVISIONING_STATE_ONLY],
    },
    (inputs) => [["provisionWorkflows", provisionBody(provisionArgs(inputs as WorkflowProvisioningInputs))]],
  ),

  async create(inputs) {
    // Unique per resource: two WorkflowProvisioning resources may target the same deployment.
    const id = formatResourceId(inputs.deploymentId, `provisioning-${randomUUID()}`);
    return { id, outs: await provision(id, inputs, platformOfResource(inputs)) };
  },

  async update(id, olds, news) {
    const ownership = ownershipOfResource(olds.platform, news, { type: TYPE, id, step: "update" });
    // A resource recorded with errors (a failed create or update) is applied again on the next `up`,
    // which the engine runs as an update with the same inputs: those errors must not be accepted silently.
    const failedBefore = (olds.errors ?? []).length > 0 && news.allowPartialFailure !== true;
    const reapply =
      failedBefore ||
      ownership.kind === "moving" ||
      WORKFLOW_PROVISIONING_REAPPLY.some((key) => !sameValue(olds[key], news[key]));
    if (!reapply) {
      const { repoFileUrls, errors } = olds;
      return { outs: { ...withoutEngineKeys(news), repoFileUrls, errors, platform: ownership.platform } };
    }
    return { outs: await provision(id, news, ownership.platform) };
  },

  // No read endpoint: a refresh keeps the state; a lookup by id is refused.
  read: stateOnlyRead(TYPE),

  async delete() {
    // No delete endpoint: the workflow files stay in the repositories; the resource leaves the state.
  },
};
