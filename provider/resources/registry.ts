/**
 * The one registry of resource kinds: each kind's one definition (./<kind>/definition.ts), under the name
 * the serialized stubs carry. The dynamic providers, the native plugin, the schema, the generated
 * TypeScript, the docs and the tests all iterate over it, so a new kind is added here once and everything
 * else follows. It loads no Pulumi runtime: the native plugin starts without @pulumi/pulumi's (the dynamic
 * providers of the kinds are made in provider/dynamic/kindProviders.ts).
 */
import type { ResourceDefinition } from "./definition";
import { scmAppDefinition } from "./scmApp/definition";
import { scmWebhookSubscriptionDefinition } from "./scmWebhookSubscription/definition";
import { userRoleDefinition } from "./userRole/definition";
import { userRolesDefinition } from "./userRoles/definition";
import { workflowProvisioningDefinition } from "./workflowProvisioning/definition";

// By hand (a test checks it against the kind folders): its order is that of schema.json, the SDKs and the docs.
export const RESOURCE_DEFINITIONS = {
  UserRole: userRoleDefinition,
  UserRoles: userRolesDefinition,
  WorkflowProvisioning: workflowProvisioningDefinition,
  ScmWebhookSubscription: scmWebhookSubscriptionDefinition,
  ScmApp: scmAppDefinition,
} as const satisfies Record<string, ResourceDefinition>;

/** Names of the resource kinds, as the stubs carry them (`pulumi-nodejs:dynamic/codesec:<kind>`). */
export type ResourceKind = keyof typeof RESOURCE_DEFINITIONS;

/** Every kind's name, in the registry's order. */
export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_DEFINITIONS) as ResourceKind[];

/** The definition of a kind held by a stack, or undefined when the installed package does not know it. */
export function resourceDefinition(name: string): ResourceDefinition | undefined {
  return Object.hasOwn(RESOURCE_DEFINITIONS, name) ? RESOURCE_DEFINITIONS[name as ResourceKind] : undefined;
}
