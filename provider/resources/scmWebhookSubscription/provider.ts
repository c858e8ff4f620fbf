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
import { clientForResource } from "../../dynamic/runtimeCredentials";

const TYPE = "codesec:ScmWebhookSubscription";

async function subscribe(inputs: ScmWebhookSubscriptionInputs): Promise<ScmWebhookSubscriptionState> {
  const response = await clientForResource(inputs).subscribeScmWebhook({
    deploymentId: inputs.deploymentId,
    configId: inputs.configId,
  });
  return {
    ...withoutEngineKeys(inputs),
    scmUrl: response.subscription.scmUrl,
    events: response.subscription.events,
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
    return { id: formatResourceId(inputs.deploymentId, inputs.configId), outs: await subscribe(inputs) };
  },

  async update(_id, olds, news) {
    // Only `triggers` asks for operation 5 again; a change of connection source is recorded as is.
    if (sameValue(olds.triggers, news.triggers)) {
      return { outs: { ...withoutEngineKeys(news), scmUrl: olds.scmUrl, events: olds.events } };
    }
    return { outs: await subscribe(news) };
  },

  // No read endpoint: a refresh keeps the state; a lookup by id is refused.
  read: stateOnlyRead(TYPE),

  async delete() {
    // No unsubscribe endpoint: the subscription stays on the platform; the resource leaves the state.
  },
};
