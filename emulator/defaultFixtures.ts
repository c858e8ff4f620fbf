/**
 * The default fixture set: deterministic (same ids, tokens and one-time codes on every start) so that
 * examples, tests and the demo can rely on them (docs/api-behaviour.md lists them).
 */
import type { FixtureNotificationRule, FixtureProject, FixtureSet } from "./fixtureSchema";

const SCM_BASE_URL = "https://scm.example.test";

const FEATURES = {
  featureFlags: [{ name: "new-dashboard", expiresAt: "2030-01-01T00:00:00Z" }],
  hasAutofix: true,
  hasDeepengine: false,
  hasTriageViaComment: true,
  hasDependencyQuery: true,
  defaultUserRole: "ORG_ROLE_MEMBER",
  editorServiceVersion: "2.4.1",
  noserviceDisabled: false,
} as const;

function scmAuth(userId: string, login: string) {
  return [
    {
      providerId: `scm-${login}`,
      providerType: "PROVIDER_TYPE_SCM",
      sourceId: `src-${userId}`,
      current: true,
      expiresAt: "2030-01-01T00:00:00Z",
      authProviderId: "authprov-scm-1",
    },
  ];
}

function project(
  id: string,
  name: string,
  fields: Partial<FixtureProject> & { deploymentId?: string; org?: string },
): FixtureProject {
  const { org = "acme", deploymentId = "1001", ...rest } = fields;
  const result: FixtureProject = {
    id,
    deploymentId,
    name,
    repoUrl: `${SCM_BASE_URL}/${org}/${name}`,
    defaultBranch: "main",
    codeAccess: true,
    setup: true,
    archived: false,
    hasSmsSetup: false,
    isScmRepository: true,
    isLocalScanProject: false,
    tagIds: [],
    ...rest,
  };
  // A local-scan project has no repository: `repoUrl: undefined` means "leave the field out".
  if ("repoUrl" in fields && fields.repoUrl === undefined) delete result.repoUrl;
  return result;
}

function rule(
  id: number,
  name: string,
  channel: string,
  config: Record<string, unknown>,
  fields: Partial<FixtureNotificationRule> = {},
): FixtureNotificationRule {
  return {
    id,
    deploymentId: "1001",
    channel,
    config,
    is_enabled: true,
    name,
    policy_slugs: ["default"],
    use_network_broker: false,
    config_error: "",
    send_scan_completion: false,
    ...fields,
  };
}

/**
 * The default fixture set. Deterministic: every start yields the same ids, API tokens and one-time codes
 * (only JWTs differ, since they carry times and are signed with a per-state random key).
 *
 * - deployment 1001 "acme": admin 501 (the credentials' user), member 502, readonly 503, impersonator 504;
 * - deployment 2002 "globex": admin 601 with its own token (for cross-deployment checks);
 * - deployment 3003 "acme-research": nobody is a member; 501 and 502 may join it
 *   (`listJoinableOrganizations`).
 */
export function defaultFixtures(): FixtureSet {
  return {
    deployments: [
      {
        id: "1001",
        name: "acme",
        displayName: "Acme Corp",
        slug: "acme",
        sourceType: "SOURCE_TYPE_SCM_ORGANIZATION",
        organizationId: "org-acme",
        features: { ...FEATURES, featureFlags: [...FEATURES.featureFlags] },
        joinableUserIds: [],
      },
      {
        id: "2002",
        name: "globex",
        displayName: "Globex Inc",
        slug: "globex",
        sourceType: "SOURCE_TYPE_SCM_ORGANIZATION",
        organizationId: "org-globex",
        features: { ...FEATURES, featureFlags: [], hasAutofix: false },
        joinableUserIds: [],
      },
      {
        id: "3003",
        name: "acme-research",
        displayName: "Acme Research",
        slug: "acme-research",
        sourceType: "SOURCE_TYPE_SSO",
        organizationId: "org-acme-research",
        features: { ...FEATURES, featureFlags: [], defaultUserRole: "ORG_ROLE_READONLY" },
        joinableUserIds: ["501", "502"],
      },
    ],
    users: [
      {
        id: "501",
        name: "Ada Admin",
        email: "ada.admin@acme.example",
        login: "ada-admin",
        authDetails: scmAuth("501", "ada-admin"),
        roles: { "1001": "ORG_ROLE_ADMIN" },
      },
      {
        id: "502",
        name: "Max Member",
        email: "max.member@acme.example",
        login: "max-member",
        authDetails: scmAuth("502", "max-member"),
        roles: { "1001": "ORG_ROLE_MEMBER" },
      },
      {
        id: "503",
        name: "Rita Readonly",
        email: "rita.readonly@acme.example",
        login: "rita-readonly",
        authDetails: [
          {
            providerId: "sso-acme",
            providerType: "PROVIDER_TYPE_SSO",
            sourceId: "src-503",
            current: true,
            authProviderId: "authprov-sso-1",
          },
        ],
        roles: { "1001": "ORG_ROLE_READONLY" },
      },
      {
        id: "504",
        name: "Ivan Impersonator",
        email: "ivan.support@acme.example",
        login: "ivan-support",
        authDetails: scmAuth("504", "ivan-support"),
        roles: { "1001": "ORG_ROLE_IMPERSONATOR" },
      },
      {
        id: "601",
        name: "Gina Globex",
        email: "gina@globex.example",
        login: "gina-globex",
        authDetails: scmAuth("601", "gina-globex"),
        roles: { "2002": "ORG_ROLE_ADMIN" },
      },
    ],
    apiTokens: [
      {
        id: "tok-1001-admin",
        value: "cst_1001_admin_5b7e0c1d9a2f4e68",
        name: "admin web API token",
        deploymentId: "1001",
        userId: "501",
        webApi: true,
        scoped: false,
      },
      {
        id: "tok-1001-noweb",
        value: "cst_1001_noweb_8d3a6f2b0c7e4159",
        name: "token without the Web API permission",
        deploymentId: "1001",
        userId: "501",
        webApi: false,
        scoped: false,
      },
      {
        id: "tok-1001-scoped",
        value: "cst_1001_scoped_2e9c4b7a1f6d0833",
        name: "scope-restricted token",
        deploymentId: "1001",
        userId: "501",
        webApi: true,
        scoped: true,
      },
      {
        id: "tok-1001-expired",
        value: "cst_1001_expired_6a1d8e3c5b0f2794",
        name: "expired token",
        deploymentId: "1001",
        userId: "501",
        webApi: true,
        scoped: false,
        expiresAt: "2020-01-01T00:00:00Z",
      },
      {
        id: "tok-1001-member",
        value: "cst_1001_member_4c0b9e7d2a5f1386",
        name: "member web API token",
        deploymentId: "1001",
        userId: "502",
        webApi: true,
        scoped: false,
      },
      {
        id: "tok-1001-readonly",
        value: "cst_1001_readonly_9f2e5a8c1d7b0463",
        name: "readonly web API token",
        deploymentId: "1001",
        userId: "503",
        webApi: true,
        scoped: false,
      },
      {
        id: "tok-2002-admin",
        value: "cst_2002_admin_1e8f3b6d0a9c4725",
        name: "globex admin web API token",
        deploymentId: "2002",
        userId: "601",
        webApi: true,
        scoped: false,
      },
    ],
    projects: [
      project("7001", "payments-api", {
        tagIds: [11],
        hasSmsSetup: true,
        lastScanAt: "2025-06-02T10:05:00Z",
      }),
      project("7002", "web-frontend", { tagIds: [11, 12], lastScanAt: "2025-06-03T08:00:00Z" }),
      project("7003", "legacy-monolith", {
        archived: true,
        tagIds: [13],
        lastScanAt: "2023-01-15T12:00:00Z",
      }),
      project("7004", "vendor-sdk", { codeAccess: false, setup: false, tagIds: [12] }),
      project("7005", "local-cli-scan", {
        repoUrl: undefined,
        isScmRepository: false,
        isLocalScanProject: true,
        lastScanAt: "2025-05-20T09:00:00Z",
      }),
      project("7006", "infra-terraform", { setup: false, tagIds: [12], lastScanAt: "2025-04-01T00:00:00Z" }),
      project("8001", "globex-core", {
        deploymentId: "2002",
        org: "globex",
        lastScanAt: "2025-06-01T00:00:00Z",
      }),
    ],
    branches: [
      { id: 9101, projectId: "7001", name: "refs/heads/main" },
      { id: 9102, projectId: "7001", name: "refs/heads/release/2025-06" },
      { id: 9103, projectId: "7002", name: "refs/heads/main" },
      { id: 9104, projectId: "7002", name: "refs/heads/feature/login" },
      { id: 9201, projectId: "8001", name: "refs/heads/main" },
    ],
    scans: [
      {
        id: "3001",
        deploymentId: "1001",
        projectId: "7001",
        branchId: "9101",
        commit: "4f2a9c1e7b3d5a6f8e0c2b4d6f8a0c1e3b5d7f9a",
        startTime: "2025-06-02T10:00:00Z",
        completeTime: "2025-06-02T10:05:00Z",
        exitCode: 0,
        isFullScan: true,
        duration: 300.5,
        findingsCounts: { total: 7, code: 3, supplyChain: 3, secrets: 1 },
        status: "SCAN_STATUS_COMPLETED",
        enabledProducts: ["PRODUCT_SAST", "PRODUCT_SCA", "PRODUCT_SECRETS"],
      },
      {
        id: "3002",
        deploymentId: "1001",
        projectId: "7002",
        branchId: "9103",
        commit: "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d",
        startTime: "2025-06-03T08:00:00Z",
        isFullScan: false,
        findingsCounts: { total: 0, code: 0, supplyChain: 0, secrets: 0 },
        status: "SCAN_STATUS_RUNNING",
        enabledProducts: ["PRODUCT_SAST", "PRODUCT_SECRETS"],
      },
      {
        id: "3201",
        deploymentId: "2002",
        projectId: "8001",
        branchId: "9201",
        commit: "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
        startTime: "2025-06-01T00:00:00Z",
        completeTime: "2025-06-01T00:02:00Z",
        exitCode: 1,
        isFullScan: true,
        duration: 120,
        findingsCounts: { total: 2, code: 2, supplyChain: 0, secrets: 0 },
        status: "SCAN_STATUS_COMPLETED",
        enabledProducts: ["PRODUCT_SAST"],
      },
    ],
    scmConfigurations: [
      {
        configId: "scmcfg-1001-a",
        deploymentId: "1001",
        scmType: "SCM_TYPE_PROVIDERA",
        scmUrl: SCM_BASE_URL,
      },
      {
        configId: "scmcfg-1001-b",
        deploymentId: "1001",
        scmType: "SCM_TYPE_PROVIDERA",
        scmUrl: "https://scm.acme.internal.example",
      },
      {
        configId: "scmcfg-2002-a",
        deploymentId: "2002",
        scmType: "SCM_TYPE_PROVIDERA",
        scmUrl: SCM_BASE_URL,
      },
    ],
    scmAppRequests: [
      {
        requestId: "apprq-1001-a",
        deploymentId: "1001",
        code: "otc-1001-a-7Hq2Zp9L",
        state: "pending",
        app: {
          id: "scmapp-1001-a",
          slug: "codesec-acme",
          appId: "310001",
          scmType: "SCM_TYPE_PROVIDERA",
          baseUrl: SCM_BASE_URL,
          scmName: "acme",
          codeAccess: true,
          tenantId: "tenant-acme",
        },
      },
      {
        requestId: "apprq-1001-b",
        deploymentId: "1001",
        code: "otc-1001-b-Kx4Vm1Rc",
        state: "pending",
        app: {
          id: "scmapp-1001-b",
          slug: "codesec-acme-internal",
          appId: "310002",
          scmType: "SCM_TYPE_PROVIDERA",
          baseUrl: "https://scm.acme.internal.example",
          scmName: "acme-internal",
          codeAccess: false,
          tenantId: "tenant-acme",
        },
      },
      {
        requestId: "apprq-1001-done",
        deploymentId: "1001",
        code: "otc-1001-done-Qe8Ws3Tb",
        state: "completed",
        completedAt: "2025-05-01T12:00:00Z",
        app: {
          id: "scmapp-1001-done",
          slug: "codesec-acme-legacy",
          appId: "310000",
          scmType: "SCM_TYPE_PROVIDERA",
          baseUrl: SCM_BASE_URL,
          scmName: "acme-legacy",
          codeAccess: true,
          tenantId: "tenant-acme",
        },
      },
      {
        requestId: "apprq-2002-a",
        deploymentId: "2002",
        code: "otc-2002-a-Ny6Jd0Fu",
        state: "pending",
        app: {
          id: "scmapp-2002-a",
          slug: "codesec-globex",
          appId: "320001",
          scmType: "SCM_TYPE_PROVIDERA",
          baseUrl: SCM_BASE_URL,
          scmName: "globex",
          codeAccess: true,
          tenantId: "tenant-globex",
        },
      },
    ],
    notificationRules: [
      rule(
        1,
        "security-alerts",
        "slack",
        { channel: "#security-alerts", workspace: "acme" },
        {
          send_scan_completion: true,
        },
      ),
      rule(
        2,
        "team-email",
        "email",
        { recipients: ["appsec@acme.example"] },
        { policy_slugs: ["default", "strict"] },
      ),
      rule(
        3,
        "siem-webhook",
        "webhook",
        { url: "https://siem.acme.example/hooks/codesec" },
        {
          use_network_broker: true,
        },
      ),
      rule(4, "old-slack", "slack", { channel: "#old-alerts", workspace: "acme" }, { is_enabled: false }),
      rule(
        5,
        "broken-webhook",
        "webhook",
        { url: "https://hooks.acme.example/missing" },
        {
          config_error: "webhook endpoint answered 404 Not Found",
        },
      ),
      rule(
        6,
        "release-email",
        "email",
        { recipients: ["release@acme.example", "cto@acme.example"] },
        {
          send_scan_completion: true,
        },
      ),
      rule(7, "jira-tickets", "jira", { projectKey: "SEC", issueType: "Bug" }, { policy_slugs: ["strict"] }),
      rule(
        8,
        "globex-alerts",
        "slack",
        { channel: "#alerts", workspace: "globex" },
        { deploymentId: "2002" },
      ),
    ],
    sample: {
      deploymentId: "1001",
      userId: "501",
      memberUserId: "502",
      apiTokenId: "tok-1001-admin",
      projectId: "7001",
      branchId: "9101",
      scanId: "3001",
      scmConfigId: "scmcfg-1001-a",
      scmAppRequestId: "apprq-1001-a",
    },
  };
}
