/**
 * The one registry of resource kinds: each kind's name (as the serialized stubs carry it), its dynamic
 * provider (the dispatch table of `pulumi-codesec/dynamic`), and its input shape. Tests and the docs
 * generator iterate over it, so a new kind is added here once and everything else follows.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { scmAppProvider } from "./scmApp/provider";
import { ScmAppInputs } from "./scmApp/shape";
import { scmWebhookSubscriptionProvider } from "./scmWebhookSubscription/provider";
import { ScmWebhookSubscriptionInputs } from "./scmWebhookSubscription/shape";
import { userRoleProvider } from "./userRole/provider";
import { UserRoleInputs } from "./userRole/shape";
import { workflowProvisioningProvider } from "./workflowProvisioning/provider";
import { WorkflowProvisioningInputs } from "./workflowProvisioning/shape";

export interface ResourceKindDefinition {
  /** The dynamic provider: check, diff, create, read, update, delete. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each provider has its own input and output types
  readonly provider: pulumi.dynamic.ResourceProvider<any, any>;
  /** The inputs' shape: the types of the class's args and the rules of `check`. */
  readonly inputs: TObject;
}

export const RESOURCE_KINDS = {
  UserRole: { provider: userRoleProvider, inputs: UserRoleInputs },
  WorkflowProvisioning: { provider: workflowProvisioningProvider, inputs: WorkflowProvisioningInputs },
  ScmWebhookSubscription: { provider: scmWebhookSubscriptionProvider, inputs: ScmWebhookSubscriptionInputs },
  ScmApp: { provider: scmAppProvider, inputs: ScmAppInputs },
} as const satisfies Record<string, ResourceKindDefinition>;

/** Names of the resource kinds, as the stubs carry them (`pulumi-nodejs:dynamic/codesec:<kind>`). */
export type ResourceKind = keyof typeof RESOURCE_KINDS;

/** Every kind's name, in the registry's order. */
export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_KINDS) as ResourceKind[];

/** The definition of a kind held by a stack, or undefined when the installed package does not know it. */
export function resourceKind(name: string): ResourceKindDefinition | undefined {
  return Object.hasOwn(RESOURCE_KINDS, name) ? RESOURCE_KINDS[name as ResourceKind] : undefined;
}
