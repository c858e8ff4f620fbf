/**
 * `codesec.ScmWebhookSubscription`: operation 5 on create and when `triggers` changes. No read or delete
 * endpoint: state is kept on refresh and destroy only forgets it.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  SCM_WEBHOOK_SUBSCRIPTION_IDENTITY,
  SCM_WEBHOOK_SUBSCRIPTION_REAPPLY,
  ScmWebhookSubscriptionInputs,
  type ScmWebhookSubscriptionState,
} from "./shape";
import { checkAndDiff } from "../../dynamic/checkAndDiff";
import { sameValue } from "../../dynamic/diffing";
import { withoutEngineKeys } from "../../dynamic/inputValidation";
import { stateOnlyRead } from "../../dynamic/lookup";
import { formatResourceId } from "../../dynamic/resourceIds";
import { clientForResource, ownershipOfResource, platformOfResource } from "../../dynamic/runtimeCredentials";

const TYPE = "codesec:ScmWebhookSubscription";

async function subscribe(
  inputs: ScmWebhookSubscriptionInputs,
  platform: string,
): Promise<ScmWebhookSubscriptionState> {
  const response = await clientForResource(inputs).subscribeScmWebhook({
    deploymentId: inputs.deploymentId,
    configId: inputs.configId,
  });
  return {
    ...withoutEngineKeys(inputs),
    scmUrl: response.subscription.scmUrl,
    events: response.subscription.events,
    platform,
  };
}

export const scmWebhookSubscriptionProvider: pulumi.dynamic.ResourceProvider<
  ScmWebhookSubscriptionInputs,
  ScmWebhookSubscriptionState
> = {
  ...checkAndDiff(ScmWebhookSubscriptionInputs, TYPE, {
    replaceOn: SCM_WEBHOOK_SUBSCRIPTION_IDENTITY,
    updateOn: SCM_WEBHOOK_SUBSCRIPTION_REAPPLY,
  }),

  async create(inputs) {
    const id = formatResourceId(inputs.deploymentId, inputs.configId);
    return { id, outs: await subscribe(inputs, platformOfResource(inputs)) };
  },

  async update(id, olds, news) {
    const ownership = ownershipOfResource(olds.platform, news, { type: TYPE, id, step: "update" });
    // Only `triggers`, or a move to another platform, asks for operation 5 again; a change of connection
    // source, or the platform of an older state, is recorded as is.
    if (ownership.kind !== "moving" && sameValue(olds.triggers, news.triggers)) {
      const { scmUrl, events } = olds;
      return { outs: { ...withoutEngineKeys(news), scmUrl, events, platform: ownership.platform } };
    }
    return { outs: await subscribe(news, ownership.platform) };
  },

  // No read endpoint: a refresh keeps the state; a lookup by id is refused.
  read: stateOnlyRead(TYPE),

  async delete() {
    // No unsubscribe endpoint: the subscription stays on the platform; the resource leaves the state.
  },
};
