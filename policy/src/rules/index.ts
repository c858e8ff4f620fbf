/** Every rule of the pack, in the order its docs list them. */
import type { Rule } from "../rule";
import { adminCount, adminRoleOnDestroy, impersonatorAllowList } from "./admins";
import { connectionByName, deploymentAllowList } from "./connections";
import { scmAppDeclaredTwice, userDeclaredTwice, webhookSubscribedTwice } from "./declaredTwice";
import { provisioningAllRepositories, provisioningPushBranches } from "./provisioning";

export const RULES: readonly Rule[] = [
  adminCount,
  adminRoleOnDestroy,
  impersonatorAllowList,
  userDeclaredTwice,
  provisioningAllRepositories,
  provisioningPushBranches,
  webhookSubscribedTwice,
  scmAppDeclaredTwice,
  deploymentAllowList,
  connectionByName,
] as Rule[];
