/**
 * The one registry of resource kinds: each kind's name (as the serialized stubs carry it), its dynamic
 * provider (the dispatch table of `pulumi-codesec/dynamic`), and its input shape. Tests and the docs
 * generator iterate over it, so a new kind is added here once and everything else follows.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { scmAppProvider } from "./scmApp/provider";
import { SCM_APP_IDENTITY, ScmAppInputs, ScmAppOutputs } from "./scmApp/shape";
import { scmWebhookSubscriptionProvider } from "./scmWebhookSubscription/provider";
import {
  SCM_WEBHOOK_SUBSCRIPTION_IDENTITY,
  SCM_WEBHOOK_SUBSCRIPTION_REAPPLY,
  ScmWebhookSubscriptionInputs,
  ScmWebhookSubscriptionOutputs,
} from "./scmWebhookSubscription/shape";
import { userRoleProvider } from "./userRole/provider";
import {
  USER_ROLE_IDENTITY,
  USER_ROLE_REAPPLY,
  USER_ROLE_STATE_ONLY,
  UserRoleInputs,
  UserRoleOutputs,
} from "./userRole/shape";
import { workflowProvisioningProvider } from "./workflowProvisioning/provider";
import {
  WORKFLOW_PROVISIONING_IDENTITY,
  WORKFLOW_PROVISIONING_REAPPLY,
  WORKFLOW_PROVISIONING_STATE_ONLY,
  WorkflowProvisioningInputs,
  WorkflowProvisioningResult,
} from "./workflowProvisioning/shape";

export interface ResourceKindDefinition {
  /** The dynamic provider: check, diff, create, read, update, delete. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each provider has its own input and output types
  readonly provider: pulumi.dynamic.ResourceProvider<any, any>;
  /** The inputs' shape: the types of the class's args and the rules of `check`. */
  readonly inputs: TObject;
  /** The outputs beyond the inputs, with their descriptions (for the docs). */
  readonly outputs: TObject;
  /**
   * What a change to an input does, from the lists the kind's diff uses (inputs in none of them, such as
   * `connection`, never show as a diff). The docs' "on change" column is derived from these.
   */
  readonly changes: {
    readonly replace: readonly string[];
    readonly updateInPlace: readonly string[];
    readonly stateOnly: readonly string[];
  };
}

export const RESOURCE_KINDS = {
  UserRole: {
    provider: userRoleProvider,
    inputs: UserRoleInputs,
    outputs: UserRoleOutputs,
    changes: {
      replace: USER_ROLE_IDENTITY,
      updateInPlace: USER_ROLE_REAPPLY,
      stateOnly: USER_ROLE_STATE_ONLY,
    },
  },
  WorkflowProvisioning: {
    provider: workflowProvisioningProvider,
    inputs: WorkflowProvisioningInputs,
    outputs: WorkflowProvisioningResult,
    changes: {
      replace: WORKFLOW_PROVISIONING_IDENTITY,
      updateInPlace: WORKFLOW_PROVISIONING_REAPPLY,
      stateOnly: WORKFLOW_PROVISIONING_STATE_ONLY,
    },
  },
  ScmWebhookSubscription: {
    provider: scmWebhookSubscriptionProvider,
    inputs: ScmWebhookSubscriptionInputs,
    outputs: ScmWebhookSubscriptionOutputs,
    changes: {
      replace: SCM_WEBHOOK_SUBSCRIPTION_IDENTITY,
      updateInPlace: SCM_WEBHOOK_SUBSCRIPTION_REAPPLY,
      stateOnly: [],
    },
  },
  ScmApp: {
    provider: scmAppProvider,
    inputs: ScmAppInputs,
    outputs: ScmAppOutputs,
    changes: { replace: SCM_APP_IDENTITY, updateInPlace: [], stateOnly: [] },
  },
} as const satisfies Record<string, ResourceKindDefinition>;

/** Names of the resource kinds, as the stubs carry them (`pulumi-nodejs:dynamic/codesec:<kind>`). */
export type ResourceKind = keyof typeof RESOURCE_KINDS;

/** Every kind's name, in the registry's order. */
export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_KINDS) as ResourceKind[];

/** The definition of a kind held by a stack, or undefined when the installed package does not know it. */
export function resourceKind(name: string): ResourceKindDefinition | undefined {
  return Object.hasOwn(RESOURCE_KINDS, name) ? RESOURCE_KINDS[name as ResourceKind] : undefined;
}
