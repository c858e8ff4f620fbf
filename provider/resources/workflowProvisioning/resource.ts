import * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs, PulumiOutputs } from "../../pulumiTypes";
import {
  WORKFLOW_PROVISIONING_OUTPUTS,
  type WorkflowProvisioningInputs,
  type WorkflowProvisioningState,
} from "./shape";
import { resourceOptions, resourceProps, warnIfObjectConnection } from "../../dynamic/resourceProps";
import { stubProvider } from "../../dynamic/stubProvider";

/** Arguments of {@link WorkflowProvisioning}. */
export type WorkflowProvisioningArgs = PulumiArgs<WorkflowProvisioningInputs>;

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface WorkflowProvisioning extends PulumiOutputs<WorkflowProvisioningState> {}

/**
 * Adds the platform's CI workflow to the repositories of the projects that match `filters` (operation 2,
 * `POST /api/agent/deployments/{deploymentId}/repos/_provision`). **Experimental** platform operation.
 *
 * - `deploymentId` identifies it; a change to `filters`, `excludeIds`, `ghaOptions` or `triggers`
 *   provisions again. Outputs `repoFileUrls` and `errors` never cause a diff.
 * - When the platform reports errors the operation fails listing each code, message and ids, unless
 *   `allowPartialFailure: true` records them in `errors`.
 * - The platform cannot read a provisioning back or remove it: refresh keeps the state, destroy only
 *   removes the resource from the stack (workflow files stay in the repositories). Change `triggers`
 *   to re-apply.
 *
 * @example
 * ```ts
 * const ci = new codesec.WorkflowProvisioning("ci", {
 *   deploymentId: "1001",
 *   filters: { codeAccess: true, archived: false, search: "payments" },
 *   ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
 * });
 * export const workflowFiles = ci.repoFileUrls;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class WorkflowProvisioning extends pulumi.dynamic.Resource {
  constructor(name: string, args: WorkflowProvisioningArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider("WorkflowProvisioning"),
      name,
      resourceProps(args, WORKFLOW_PROVISIONING_OUTPUTS),
      resourceOptions(opts),
      "codesec",
      "WorkflowProvisioning",
    );
    warnIfObjectConnection(this, args.connection);
  }
}
