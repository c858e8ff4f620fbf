/**
 * The dynamic providers the engine calls, one per kind (derived from each kind's definition), under the
 * names tests use, typed with each kind's inputs and state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import type { ScmAppInputs, ScmAppState } from "../../provider/resources/scmApp/definition";
import type {
  ScmWebhookSubscriptionInputs,
  ScmWebhookSubscriptionState,
} from "../../provider/resources/scmWebhookSubscription/definition";
import type { UserRoleInputs, UserRoleState } from "../../provider/resources/userRole/definition";
import type {
  WorkflowProvisioningInputs,
  WorkflowProvisioningState,
} from "../../provider/resources/workflowProvisioning/definition";

type Provider<Inputs, State> = Required<pulumi.dynamic.ResourceProvider<Inputs, State>>;

export const userRoleProvider = dynamicProviderOf("UserRole") as Provider<UserRoleInputs, UserRoleState>;
export const workflowProvisioningProvider = dynamicProviderOf("WorkflowProvisioning") as Provider<
  WorkflowProvisioningInputs,
  WorkflowProvisioningState
>;
export const scmWebhookSubscriptionProvider = dynamicProviderOf("ScmWebhookSubscription") as Provider<
  ScmWebhookSubscriptionInputs,
  ScmWebhookSubscriptionState
>;
export const scmAppProvider = dynamicProviderOf("ScmApp") as Provider<ScmAppInputs, ScmAppState>;
