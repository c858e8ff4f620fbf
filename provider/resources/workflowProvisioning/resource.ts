import * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs, PulumiOutputs } from "../../pulumiTypes";
import {
  workflowProvisioningDefinition,
  type WorkflowProvisioningInputs,
  type WorkflowProvisioningState,
} from "./definition";
import { declaredProps, resourceOptions, warnAboutArguments } from "../../dynamic/resourceProps";
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
 *   filters: { codeAccess: true, archived: false, setup: true },
 *   excludeIds: ["7005"], // a local-scan project: no repository to write a workflow into
 *   ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
 * });
 * export const workflowFiles = ci.repoFileUrls;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class WorkflowProvisioning extends pulumi.dynamic.Resource {
  /**
   * Looks up an existing WorkflowProvisioning by its id (`<deploymentId>/<key>`), as generated SDKs' `get` does:
   * the engine reads it and records it in the stack as a resource this program does not manage
   * (`pulumi destroy` forgets it and changes nothing). **Experimental**.
   *
   * The lookup uses the stack's default connection (stack config `codesec:baseUrl` and `codesec:token`,
   * else `CODESEC_BASE_URL` and `CODESEC_TOKEN`). It is refused with an error that says so: the platform has no operation that reads it back.
   *
   * @example
   * ```ts
   * const found = codesec.WorkflowProvisioning.get("wf", "1001/provisioning-<uuid>");
   * ```
   */
  public static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): WorkflowProvisioning {
    return new WorkflowProvisioning(name, undefined, { ...opts, id });
  }

  constructor(name: string, args: WorkflowProvisioningArgs, opts?: pulumi.CustomResourceOptions);
  /** @internal A lookup by id: see {@link WorkflowProvisioning.get}. */
  constructor(
    name: string,
    args: undefined,
    opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> },
  );
  constructor(name: string, args: WorkflowProvisioningArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider("WorkflowProvisioning"),
      name,
      declaredProps(workflowProvisioningDefinition, args),
      resourceOptions(workflowProvisioningDefinition, opts),
      "codesec",
      "WorkflowProvisioning",
    );
    warnAboutArguments(this, args, opts);
  }
}
