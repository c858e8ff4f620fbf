/**
 * Picks the sample objects `startEmulator` and `codesec-emulator --json` report: the fixture set's own
 * designations (`sample`) where they still point at something, else the first fitting object.
 */
import type { EmulatorStore } from "./store";

/**
 * Ids of one object of each kind, for examples and tests. A kind the data lacks (fixture files may leave
 * any collection out) samples as `""`, never an id that does not exist: the fields stay strings so that
 * `--json` readers see the same keys whatever the fixtures hold. Only the deployment, the admin (`userId`)
 * and its API token are required; without them the start fails.
 */
export interface EmulatorSample {
  /** The user behind `apiToken` and `jwt` (an ORG_ROLE_ADMIN of the sample deployment). */
  userId: string;
  /** Another member of the sample deployment ("" when it has none). */
  memberUserId: string;
  projectId: string;
  /** A branch of `projectId`. */
  branchId: string;
  scanId: string;
  scmConfigId: string;
  /** An SCM app request (pending in fresh fixtures) and its one-time code. */
  scmAppRequestId: string;
  scmAppCode: string;
}

/** The sample plus what the handle needs to hand out credentials. */
export interface ResolvedSample {
  deploymentId: string;
  apiTokenValue: string;
  sample: EmulatorSample;
}

function usable(expiresAt: string | undefined, now: Date): boolean {
  return expiresAt === undefined || Date.parse(expiresAt) > now.getTime();
}

/** Resolves the sample from the store; throws when the data has no admin with a usable web-API token. */
export function resolveSample(store: EmulatorStore, now: Date = new Date()): ResolvedSample {
  const wanted = store.sampleDesignations();
  const deployments = store.deployments();
  const deployment =
    deployments.find((d) => d.id === wanted.deploymentId) ??
    deployments.find((d) => store.members(d.id).some((u) => u.roles[d.id] === "ORG_ROLE_ADMIN"));
  if (!deployment) throw new Error("the fixtures have no deployment with an ORG_ROLE_ADMIN user");
  const deploymentId = deployment.id;
  const members = store.members(deploymentId);
  const admin =
    members.find((u) => u.id === wanted.userId && u.roles[deploymentId] === "ORG_ROLE_ADMIN") ??
    members.find((u) => u.roles[deploymentId] === "ORG_ROLE_ADMIN");
  if (!admin) throw new Error(`the fixtures have no ORG_ROLE_ADMIN user in deployment ${deploymentId}`);

  const tokens = store
    .allApiTokens()
    .filter(
      (t) =>
        t.deploymentId === deploymentId &&
        t.userId === admin.id &&
        t.webApi &&
        !t.scoped &&
        t.revokedAt === undefined &&
        usable(t.expiresAt, now),
    );
  const token = tokens.find((t) => t.id === wanted.apiTokenId) ?? tokens[0];
  if (!token) {
    throw new Error(
      `the fixtures have no usable API token of user ${admin.id} in deployment ${deploymentId} ` +
        "(one with webApi: true, scoped: false, not expired, not revoked)",
    );
  }

  const member =
    members.find((u) => u.id === wanted.memberUserId && u.id !== admin.id) ??
    members.find((u) => u.id !== admin.id);
  const projects = store.projects(deploymentId);
  const project =
    projects.find((p) => p.id === wanted.projectId) ??
    projects.find((p) => store.branches(p.id).length > 0) ??
    projects[0];
  const branches = project ? store.branches(project.id) : [];
  const branch = branches.find((b) => String(b.id) === wanted.branchId) ?? branches[0];
  const scans = store.scans(deploymentId);
  const scan = scans.find((s) => s.id === wanted.scanId) ?? scans[0];
  const configs = store.scmConfigurations(deploymentId);
  const config = configs.find((c) => c.configId === wanted.scmConfigId) ?? configs[0];
  const requests = store.allScmAppRequests().filter((r) => r.deploymentId === deploymentId);
  const appRequest =
    requests.find((r) => r.requestId === wanted.scmAppRequestId) ??
    requests.find((r) => r.state === "pending");

  return {
    deploymentId,
    apiTokenValue: token.value,
    sample: {
      userId: admin.id,
      memberUserId: member?.id ?? "",
      projectId: project?.id ?? "",
      branchId: branch ? String(branch.id) : "",
      scanId: scan?.id ?? "",
      scmConfigId: config?.configId ?? "",
      scmAppRequestId: appRequest?.requestId ?? "",
      scmAppCode: appRequest?.code ?? "",
    },
  };
}
