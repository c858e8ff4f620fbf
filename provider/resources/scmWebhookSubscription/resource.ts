import * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs, PulumiOutputs } from "../../pulumiTypes";
import {
  SCM_WEBHOOK_SUBSCRIPTION_OUTPUTS,
  type ScmWebhookSubscriptionInputs,
  type ScmWebhookSubscriptionState,
} from "./shape";
import { resourceOptions, resourceProps, warnIfObjectConnection } from "../../dynamic/resourceProps";
import { stubProvider } from "../../dynamic/stubProvider";

/** Arguments of {@link ScmWebhookSubscription}. */
export type ScmWebhookSubscriptionArgs = PulumiArgs<ScmWebhookSubscriptionInputs>;

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface ScmWebhookSubscription extends PulumiOutputs<ScmWebhookSubscriptionState> {}

/**
 * Subscribes an SCM configuration of a deployment to SCM webhook events (operation 5, `PUT
 * /api/scm/deployments/{deploymentId}/subscriptions/{configId}`). **Experimental** platform operation.
 *
 * - `deploymentId` and `configId` identify it; changing `triggers` subscribes again.
 * - Outputs `scmUrl` and `events` (chosen by the platform) never cause a diff.
 * - No read or unsubscribe endpoint: refresh keeps the state, destroy only removes it from the stack.
 *
 * @example
 * ```ts
 * const hooks = new codesec.ScmWebhookSubscription("github-hooks", { deploymentId: "1001", configId: "scm-config-1" });
 * export const events = hooks.events;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ScmWebhookSubscription extends pulumi.dynamic.Resource {
  constructor(name: string, args: ScmWebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider("ScmWebhookSubscription"),
      name,
      resourceProps(args, SCM_WEBHOOK_SUBSCRIPTION_OUTPUTS),
      resourceOptions(opts),
      "codesec",
      "ScmWebhookSubscription",
    );
    warnIfObjectConnection(this, args.connection);
  }
}
