/**
 * The calls behind `codesec.ScmWebhookSubscription` (its definition: ./definition.ts): `subscribeScmWebhook`
 * on create and when it is applied again. No read or delete endpoint: state is kept on refresh and destroy
 * only forgets it.
 */
import { SubscribeScmWebhookArgs } from "../../../api/schemas/scm";
import { clientOf } from "../../providerContext";
import { operationArguments } from "../operationArguments";
import { formatResourceId } from "../resourceIds";
import type { KindContext, KindImplementation } from "../kindImplementation";
import type { ScmWebhookSubscriptionInputs, ScmWebhookSubscriptionState } from "./definition";

async function subscribe(ctx: KindContext, inputs: ScmWebhookSubscriptionInputs) {
  const response = await clientOf(ctx, inputs).subscribeScmWebhook(
    operationArguments(SubscribeScmWebhookArgs, inputs, ctx.inputFields),
  );
  return { ...inputs, scmUrl: response.subscription.scmUrl, events: response.subscription.events };
}

export const scmWebhookSubscriptionImplementation: KindImplementation<
  ScmWebhookSubscriptionInputs,
  ScmWebhookSubscriptionState
> = {
  sentArguments: [SubscribeScmWebhookArgs],

  async create(inputs, ctx) {
    return {
      id: formatResourceId(inputs.deploymentId, inputs.configId),
      state: await subscribe(ctx, inputs),
    };
  },

  async update(_id, olds, news, plan, ctx) {
    // Only new triggers, or a move to another platform, subscribe again; a change of connection source is
    // recorded as is.
    if (!plan.reapply) return { ...news, scmUrl: olds.scmUrl ?? "", events: olds.events ?? [] };
    return subscribe(ctx, news);
  },

  // No read endpoint: a refresh keeps the state (an import is refused by the definition's import rule).
  async read(_id, state) {
    return { state: state! };
  },

  async delete() {
    // No unsubscribe endpoint: the subscription stays on the platform; the resource leaves the state.
  },
};
