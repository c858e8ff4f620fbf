/**
 * Every problem of a fixture set, worded for whoever wrote it: values that are not JSON data, shape errors
 * (the one wording of `pulumi-codesec/api`'s schemaIssues, secrets shown by type only), then duplicate ids
 * and broken references.
 */
import { issueMessage, schemaIssues } from "pulumi-codesec/api";
import { FixtureFile, withAllCollections, type FixtureSet } from "./fixtureSchema";
import { nonJsonDataProblems } from "./jsonData";

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** The paths of the secrets in a fixture set (token values, one-time codes): messages never show them. */
function secretPaths(value: unknown): string[] {
  const set = (value !== null && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const indexes = (list: unknown) => (Array.isArray(list) ? list.map((_, i) => i) : []);
  return [
    ...indexes(set.apiTokens).map((i) => `apiTokens[${i}].value`),
    ...indexes(set.scmAppRequests).map((i) => `scmAppRequests[${i}].code`),
  ];
}

/**
 * Every problem of a fixture set (collections may be absent): values that are not JSON data first (a
 * function, a Date, an undefined field: nonJsonDataProblems), then shape errors, each naming the field,
 * what is expected there and what was found (the one wording of `pulumi-codesec/api`'s schemaIssues);
 * if the shape is right, broken references and duplicate ids. Empty when the set is usable.
 */
export function fixtureSetProblems(value: unknown): string[] {
  // First: the store keeps the set as JSON text, and the schema lets anything through where it says
  // unknown (a rule's `config`) or allows extra fields (a rule's): JSON would drop or change such a value.
  const notData = nonJsonDataProblems(value, "the fixture set");
  if (notData.length > 0) return notData;
  const issues = schemaIssues(FixtureFile, value);
  if (issues.length > 0) {
    const subject = { name: "a fixture set", noun: "field", secretFields: secretPaths(value) } as const;
    return issues.slice(0, 10).map((issue) => issueMessage(issue, subject));
  }
  return referenceProblems(withAllCollections(value as FixtureFile));
}

function referenceProblems(set: FixtureSet): string[] {
  const problems: string[] = [];
  const deployments = new Set(set.deployments.map((d) => d.id));
  const users = new Set(set.users.map((u) => u.id));
  const projects = new Set(set.projects.map((p) => p.id));
  const unique: Array<[string, string[]]> = [
    ["deployment id", set.deployments.map((d) => d.id)],
    ["user id", set.users.map((u) => u.id)],
    ["api token id", set.apiTokens.map((t) => t.id)],
    ["api token value", set.apiTokens.map((t) => t.value)],
    ["project id", set.projects.map((p) => p.id)],
    ["branch id", set.branches.map((b) => String(b.id))],
    ["scan id", set.scans.map((s) => s.id)],
    ["SCM configuration id", set.scmConfigurations.map((c) => `${c.deploymentId}/${c.configId}`)],
    ["SCM app request id", set.scmAppRequests.map((r) => r.requestId)],
    ["notification rule id", set.notificationRules.map((r) => String(r.id))],
  ];
  for (const [what, ids] of unique) {
    for (const id of duplicates(ids)) problems.push(`duplicate ${what} ${JSON.stringify(id)}`);
  }
  const needDeployment = (where: string, id: string) => {
    if (!deployments.has(id)) problems.push(`${where}: unknown deploymentId ${JSON.stringify(id)}`);
  };
  for (const u of set.users) for (const d of Object.keys(u.roles)) needDeployment(`user ${u.id} roles`, d);
  for (const d of set.deployments) {
    for (const u of d.joinableUserIds) {
      if (!users.has(u))
        problems.push(`deployment ${d.id} joinableUserIds: unknown user ${JSON.stringify(u)}`);
    }
  }
  for (const t of set.apiTokens) {
    needDeployment(`api token ${t.id}`, t.deploymentId);
    if (!users.has(t.userId)) problems.push(`api token ${t.id}: unknown userId ${JSON.stringify(t.userId)}`);
  }
  for (const p of set.projects) needDeployment(`project ${p.id}`, p.deploymentId);
  for (const b of set.branches) {
    if (!projects.has(b.projectId))
      problems.push(`branch ${b.id}: unknown projectId ${JSON.stringify(b.projectId)}`);
  }
  for (const s of set.scans) {
    needDeployment(`scan ${s.id}`, s.deploymentId);
    if (!projects.has(s.projectId))
      problems.push(`scan ${s.id}: unknown projectId ${JSON.stringify(s.projectId)}`);
  }
  for (const c of set.scmConfigurations) needDeployment(`SCM configuration ${c.configId}`, c.deploymentId);
  for (const r of set.scmAppRequests) needDeployment(`SCM app request ${r.requestId}`, r.deploymentId);
  for (const r of set.notificationRules) needDeployment(`notification rule ${r.id}`, r.deploymentId);
  if (set.deployments.length === 0) problems.push("deployments: at least one deployment is needed");
  return problems;
}
