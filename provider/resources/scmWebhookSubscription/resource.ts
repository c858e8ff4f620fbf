import * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs, PulumiOutputs } from "../../pulumiTypes";
import {
  scmWebhookSubscriptionDefinition,
  type ScmWebhookSubscriptionInputs,
  type ScmWebhookSubscriptionState,
} from "./definition";
import { declaredProps, resourceOptions, warnAboutArguments } from "../../dynamic/resourceProps";
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
 * const hooks = new codesec.ScmWebhookSubscription("github-hooks", { deploymentId: "1001", configId: "scmcfg-1001-a" });
 * export const events = hooks.events;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ScmWebhookSubscription extends pulumi.dynamic.Resource {
  /**
   * Looks up an existing ScmWebhookSubscription by its id (`<deploymentId>/<key>`), as generated SDKs' `get` does:
   * the engine reads it and records it in the stack as a resource this program does not manage
   * (`pulumi destroy` forgets it and changes nothing). **Experimental**.
   *
   * The lookup uses the stack's default connection (stack config `codesec:baseUrl` and `codesec:token`,
   * else `CODESEC_BASE_URL` and `CODESEC_TOKEN`). It is refused with an error that says so: the platform has no operation that reads it back.
   *
   * @example
   * ```ts
   * const found = codesec.ScmWebhookSubscription.get("hooks", "1001/<configId>");
   * ```
   */
  public static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): ScmWebhookSubscription {
    return new ScmWebhookSubscription(name, undefined, { ...opts, id });
  }

  constructor(name: string, args: ScmWebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions);
  /** @internal A lookup by id: see {@link ScmWebhookSubscription.get}. */
  constructor(
    name: string,
    args: undefined,
    opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> },
  );
  constructor(
    name: string,
    args: ScmWebhookSubscriptionArgs | undefined,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(
      stubProvider("ScmWebhookSubscription"),
      name,
      declaredProps(scmWebhookSubscriptionDefinition, args),
      resourceOptions(scmWebhookSubscriptionDefinition, opts),
      "codesec",
      "ScmWebhookSubscription",
    );
    warnAboutArguments(this, args, opts);
  }
}
