/**
 * The store's data, indexed: a table per collection (./table), each deployment's notification rules by
 * ascending id, and each deployment's number of admins, so that a request costs what it touches.
 */
import type { Scan } from "pulumi-codesec/api";
import type {
  FixtureApiToken,
  FixtureBranch,
  FixtureDeployment,
  FixtureNotificationRule,
  FixtureProject,
  FixtureSample,
  FixtureScmAppRequest,
  FixtureScmConfiguration,
  FixtureSet,
  FixtureUser,
} from "./fixtureSchema";
import { Table } from "./table";

/** The data, indexed: what the store reads and changes. */
export interface IndexedData {
  deployments: Table<FixtureDeployment, "id">;
  users: Table<FixtureUser, "id">;
  apiTokens: Table<FixtureApiToken, "id" | "value">;
  projects: Table<FixtureProject, "id", "deploymentId">;
  branches: Table<FixtureBranch, "id", "projectId">;
  scans: Table<Scan, "id", "deploymentId">;
  scmConfigurations: Table<FixtureScmConfiguration, "deploymentAndConfigId", "deploymentId">;
  scmAppRequests: Table<FixtureScmAppRequest, "requestId">;
  notificationRules: Table<FixtureNotificationRule, "id">;
  /** Each deployment's rules by ascending id (`listNotificationRules` pages through them by id). */
  rulesByDeployment: Map<string, FixtureNotificationRule[]>;
  /** How many admins each deployment has (`updateUserRole`'s last-admin rule asks on every demotion). */
  adminCounts: Map<string, number>;
  sample: FixtureSample | undefined;
}

const byDeploymentId = (item: { deploymentId: string }) => item.deploymentId;
/** The key of an SCM configuration: config ids are unique within a deployment only. */
export const scmConfigurationKey = (deploymentId: string, configId: string) => `${deploymentId}/${configId}`;

/** A collection of a fixture set (the members holding arrays). */
export type CollectionName = Exclude<keyof FixtureSet, "sample">;

/**
 * The key that tells each collection's items apart: the one definition the tables are indexed by and the
 * journal replaces items by (./stateJournal).
 */
export const COLLECTION_KEYS: { [K in CollectionName]: (item: FixtureSet[K][number]) => string } = {
  deployments: (d) => d.id,
  users: (u) => u.id,
  apiTokens: (t) => t.id,
  projects: (p) => p.id,
  branches: (b) => String(b.id),
  scans: (s) => s.id,
  scmConfigurations: (c) => scmConfigurationKey(c.deploymentId, c.configId),
  scmAppRequests: (r) => r.requestId,
  notificationRules: (r) => String(r.id),
};

/** Indexes `data` (taken, not copied: its items are frozen). */
export function indexData(data: FixtureSet): IndexedData {
  const rulesByDeployment = new Map<string, FixtureNotificationRule[]>();
  for (const rule of [...data.notificationRules].sort((a, b) => a.id - b.id)) {
    const rules = rulesByDeployment.get(rule.deploymentId);
    if (rules) rules.push(rule);
    else rulesByDeployment.set(rule.deploymentId, [rule]);
  }
  const adminCounts = new Map<string, number>();
  for (const user of data.users) {
    for (const [deploymentId, role] of Object.entries(user.roles)) {
      if (role === "ORG_ROLE_ADMIN") adminCounts.set(deploymentId, (adminCounts.get(deploymentId) ?? 0) + 1);
    }
  }
  const keys = COLLECTION_KEYS;
  return {
    deployments: new Table(data.deployments, { id: keys.deployments }),
    users: new Table(data.users, { id: keys.users }),
    apiTokens: new Table(data.apiTokens, { id: keys.apiTokens, value: (t) => t.value }),
    projects: new Table(data.projects, { id: keys.projects }, { deploymentId: byDeploymentId }),
    branches: new Table(data.branches, { id: keys.branches }, { projectId: (b) => b.projectId }),
    scans: new Table(data.scans, { id: keys.scans }, { deploymentId: byDeploymentId }),
    scmConfigurations: new Table(
      data.scmConfigurations,
      { deploymentAndConfigId: keys.scmConfigurations },
      { deploymentId: byDeploymentId },
    ),
    scmAppRequests: new Table(data.scmAppRequests, { requestId: keys.scmAppRequests }),
    notificationRules: new Table(data.notificationRules, { id: keys.notificationRules }),
    rulesByDeployment,
    adminCounts,
    sample: data.sample,
  };
}

/** The data as a fixture set (the tables' own frozen items: copy before handing it out). */
export function dataOf(indexed: IndexedData): FixtureSet {
  return {
    deployments: [...indexed.deployments.items],
    users: [...indexed.users.items],
    apiTokens: [...indexed.apiTokens.items],
    projects: [...indexed.projects.items],
    branches: [...indexed.branches.items],
    scans: [...indexed.scans.items],
    scmConfigurations: [...indexed.scmConfigurations.items],
    scmAppRequests: [...indexed.scmAppRequests.items],
    notificationRules: [...indexed.notificationRules.items],
    ...(indexed.sample !== undefined ? { sample: indexed.sample } : {}),
  };
}

/** The position of the first rule with an id above `afterId` in rules sorted by id. */
export function firstAfter(rules: readonly FixtureNotificationRule[], afterId: number): number {
  let low = 0;
  let high = rules.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rules[middle].id <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}
