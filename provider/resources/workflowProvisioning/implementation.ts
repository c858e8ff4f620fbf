/**
 * The calls behind `codesec.WorkflowProvisioning` (its definition: ./definition.ts): `provisionWorkflows` on
 * create and whenever what it provisions changes. The platform has no read or delete for it: state is kept on
 * refresh and destroy only forgets it.
 */
import { randomUUID } from "node:crypto";
import { provisionBody } from "../../../client/operations/provisioning";
import { ProvisionWorkflowsArgs } from "../../../api/schemas/provisioning";
import { clientOf } from "../../providerContext";
import { formatResourceId } from "../resourceIds";
import { ProvisioningPartialFailure } from "../../errors";
import { operationArguments } from "../operationArguments";
import type { KindContext, KindImplementation } from "../kindImplementation";
import type { CheckedWorkflowProvisioningInputs, WorkflowProvisioningState } from "./definition";

/** The provisionWorkflows arguments of a resource's inputs: the client validates them as `check` did. */
function provisionArgs(inputs: CheckedWorkflowProvisioningInputs, ctx: KindContext): ProvisionWorkflowsArgs {
  return operationArguments(ProvisionWorkflowsArgs, inputs, ctx.inputFields);
}

async function provision(ctx: KindContext, id: string, inputs: CheckedWorkflowProvisioningInputs) {
  const result = await clientOf(ctx, inputs).provisionWorkflows(provisionArgs(inputs, ctx));
  const state = { ...inputs, repoFileUrls: result.repoFileUrls, errors: result.errors };
  if (result.errors.length > 0 && !inputs.allowPartialFailure) {
    throw new ProvisioningPartialFailure(ctx.type, id, state);
  }
  return state;
}

/** A resource recorded with errors (a failed create or update) whose errors are not to be accepted. */
function failedBefore(state: WorkflowProvisioningState, news: CheckedWorkflowProvisioningInputs): boolean {
  return (state.errors ?? []).length > 0 && !news.allowPartialFailure;
}

export const workflowProvisioningImplementation: KindImplementation<
  CheckedWorkflowProvisioningInputs,
  WorkflowProvisioningState
> = {
  sentArguments: [ProvisionWorkflowsArgs],

  requestBodies: (inputs, ctx) => [["provisionWorkflows", provisionBody(provisionArgs(inputs, ctx))]],

  // A resource recorded with errors is applied again on the next `up`, which the engine runs as an update
  // with the same inputs: those errors must not be accepted silently.
  pendingChanges: (state, news) => (failedBefore(state, news) ? ["errors"] : []),

  async create(inputs, ctx) {
    // Unique per resource: two WorkflowProvisioning resources may target the same deployment.
    const id = formatResourceId(inputs.deploymentId, `provisioning-${randomUUID()}`);
    return { id, state: await provision(ctx, id, inputs) };
  },

  async update(id, olds, news, plan, ctx) {
    if (!plan.reapply && !failedBefore(olds, news)) {
      return { ...news, repoFileUrls: olds.repoFileUrls ?? {}, errors: olds.errors ?? [] };
    }
    return provision(ctx, id, news);
  },

  // No read endpoint: a refresh keeps the state (an import is refused by the definition's import rule).
  async read(_id, state) {
    return { state: state! };
  },

  async delete() {
    // No delete endpoint: the workflow files stay in the repositories; the resource leaves the state.
  },
};
