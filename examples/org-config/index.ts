/**
 * A code-security organization, declared: team roles, the CI workflow in matching repositories, SCM
 * webhooks, an SCM app connection, and read-only facts from the platform as stack outputs.
 *
 * Every setting comes from stack config (see Pulumi.example.yaml); the defaults match the local
 * emulator's default fixtures, so `pulumi up` against the emulator needs only the credentials.
 *
 * The program is the exported function: Pulumi calls it and its result becomes the stack outputs
 * (tests/unit/examples.mocks.test.ts calls it the same way under runtime mocks).
 */
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

/** One entry of the `teamRoles` config list. */
interface TeamRole {
  userId: string;
  role: codesec.OrgRole;
  /** Role set when the entry is removed or the stack destroyed; without it the user keeps `role`. */
  roleOnDestroy?: codesec.OrgRole;
}

type Filters = NonNullable<codesec.WorkflowProvisioningArgs["filters"]>;
type GhaOptions = NonNullable<codesec.WorkflowProvisioningArgs["ghaOptions"]>;

// Defaults: the emulator's default fixtures (deployment 1001 "acme").
const DEFAULT_DEPLOYMENT_ID = "1001";
const DEFAULT_TEAM_ROLES: TeamRole[] = [
  // The credentials' own user: the one role that `pulumi refresh` can read back (drift shows here).
  // No roleOnDestroy: destroying the stack must not lock its own automation out.
  { userId: "501", role: "ORG_ROLE_ADMIN" },
  { userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
  { userId: "503", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
];
const DEFAULT_WORKFLOW_FILTERS: Filters = { codeAccess: true, archived: false, isScmRepository: true };
const DEFAULT_GHA_OPTIONS: GhaOptions = {
  prEnabled: true,
  prSendComments: true,
  pushEnabled: true,
  pushBranches: ["main"],
};
const DEFAULT_SCM_CONFIG_ID = "scmcfg-1001-a";
// An app that is already connected: without `scmAppCode` the resource adopts it (reads it, completes nothing).
const DEFAULT_SCM_APP_REQUEST_ID = "apprq-1001-done";
const DEFAULT_SCAN_ID = "3001";

/**
 * The `teamRoles` list, checked for what the provider cannot see (shape, one entry per user). User ids
 * may come as numbers (`pulumi config set --path 'teamRoles[0].userId' 502` stores a number).
 */
function teamRoles(cfg: pulumi.Config): TeamRole[] {
  const list = cfg.getObject<unknown>("teamRoles") ?? DEFAULT_TEAM_ROLES;
  if (!Array.isArray(list)) {
    throw new pulumi.RunError("config teamRoles must be a list of { userId, role, roleOnDestroy? }");
  }
  const seen = new Set<string>();
  return list.map((entry: { userId?: unknown; role?: unknown; roleOnDestroy?: unknown } | null, i) => {
    const userId = typeof entry?.userId === "number" ? String(entry.userId) : entry?.userId;
    if (typeof userId !== "string" || userId === "" || typeof entry?.role !== "string") {
      throw new pulumi.RunError(
        `config teamRoles[${i}] needs a userId and a role, got ${JSON.stringify(entry)}`,
      );
    }
    if (seen.has(userId)) throw new pulumi.RunError(`config teamRoles lists user ${userId} twice`);
    seen.add(userId);
    // The provider checks the role values (and names the field) before any call.
    return {
      userId,
      role: entry.role as codesec.OrgRole,
      roleOnDestroy: entry.roleOnDestroy as codesec.OrgRole | undefined,
    };
  });
}

export = function orgConfig() {
  const cfg = new pulumi.Config();
  const deploymentId = cfg.get("deploymentId") ?? DEFAULT_DEPLOYMENT_ID;

  // Team roles. A role change is an in-place update; a new userId under the same entry is a new resource.
  const roles = teamRoles(cfg).map(
    (entry) =>
      new codesec.UserRole(`role-${entry.userId}`, {
        deploymentId,
        userId: entry.userId,
        role: entry.role,
        roleOnDestroy: entry.roleOnDestroy,
      }),
  );

  // The CI workflow in every repository whose project matches the filters. The platform cannot read a
  // provisioning back: change `workflowRevision` to provision again (e.g. after a file was removed by hand).
  const ci = new codesec.WorkflowProvisioning("ci-workflow", {
    deploymentId,
    filters: cfg.getObject<Filters>("workflowFilters") ?? DEFAULT_WORKFLOW_FILTERS,
    excludeIds: cfg.getObject<string[]>("workflowExcludeIds"),
    ghaOptions: cfg.getObject<GhaOptions>("ghaOptions") ?? DEFAULT_GHA_OPTIONS,
    triggers: cfg.get("workflowRevision"),
  });

  // SCM webhook events for one SCM configuration (the platform chooses the events). Not readable back
  // either: change `webhookRevision` to subscribe again.
  const webhooks = new codesec.ScmWebhookSubscription("scm-webhooks", {
    deploymentId,
    configId: cfg.get("scmConfigId") ?? DEFAULT_SCM_CONFIG_ID,
    triggers: cfg.get("webhookRevision"),
  });

  // The SCM app: with `scmAppCode` (a secret, used once) create completes the pending request; without
  // it, create adopts the app already connected under the request id.
  const scmApp = new codesec.ScmApp("scm-app", {
    deploymentId,
    requestId: cfg.get("scmAppRequestId") ?? DEFAULT_SCM_APP_REQUEST_ID,
    code: cfg.getSecret("scmAppCode"),
  });

  // Read-only facts, fetched on every preview and update.
  const me = codesec.getCurrentUserOutput({});
  // The API has no "list scans" operation: the scan to report is named in config.
  const scan = codesec.getScanOutput({ deploymentId, scanId: cfg.get("scanId") ?? DEFAULT_SCAN_ID });
  const branch = codesec.getBranchOutput({
    deploymentId,
    projectId: scan.projectId,
    branchId: scan.branchId,
  });
  // Reads the app through an output-only property of the resource, so it runs once the app is connected
  // (that property is unknown while a preview plans the connection).
  const app = codesec.getScmAppOutput({ deploymentId, requestId: scmApp.requestId });
  const rules = codesec.getNotificationRulesOutput({ deploymentId });

  return {
    deploymentId,
    /** userId -> role, as applied. */
    teamRoles: pulumi
      .all(roles.map((r) => pulumi.all([r.userId, r.role])))
      .apply((pairs) => Object.fromEntries(pairs)),
    /** Project id -> URL of the workflow file, from the last provisioning. */
    workflowFiles: ci.repoFileUrls,
    webhookEvents: webhooks.events,
    scmApp: app.apply((a) => ({
      slug: a.slug,
      scmName: a.scmName,
      codeAccess: a.codeAccess,
      baseUrl: a.baseUrl,
    })),
    currentUser: me.apply((u) => ({ id: u.id, login: u.login, orgRole: u.orgRole })),
    latestScan: pulumi.all([scan, branch]).apply(([s, b]) => ({
      id: s.id,
      status: s.status,
      projectId: s.projectId,
      branch: b.name,
      findings: s.findingsCounts.total,
    })),
    /** Notification rules that are disabled or report a configuration error. */
    notificationRuleProblems: rules.rulesWithProblems.apply((list) =>
      list.map((r) => ({
        id: r.id,
        name: r.name,
        channel: r.channel,
        problem: r.config_error || "disabled",
      })),
    ),
  };
};
