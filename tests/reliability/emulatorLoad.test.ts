/**
 * The emulator under load: 16 clients at once, 500 mixed requests each (reads and idempotent writes) over
 * keep-alive connections. Every answer must have the expected status and a body valid against its
 * response schema, and the final state must be exactly what the writes asked for. The request sequences
 * are pseudo-random from fixed seeds, so the counts in the report are the same on every run.
 */
import { expect } from "chai";
import { Agent } from "node:http";
import type { TSchema } from "@sinclair/typebox";
import { defaultFixtures, startEmulator, type EmulatorHandle, type FixtureSet } from "../../emulator/index";
import { REQUEST_LOG_LIMIT } from "../../emulator/requestLog";
import type { RedactedState } from "../../emulator/store";
import type { OperationKey } from "../../api/operations";
import { checkerFor } from "../../api/schemaChecks";
import {
  BranchResponse,
  CurrentUserResponse,
  ListNotificationRulesResponse,
  ProvisionResult,
  ScanResponse,
  ScmAppResponse,
  SubscribeScmWebhookResponse,
  UpdateUserRoleResponse,
} from "../../api/schemas";
import { markdownTable, writeReportSection } from "../support/reliabilityReport";
import { apiHeaders, rawRequest } from "../support/rawHttp";

const CLIENTS = 16;
const REQUESTS_PER_CLIENT = 500;
const DEPLOYMENT = "1001";
/** The two non-admin roles the writers alternate between. */
const ROLES = ["ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"] as const;
const SCANS = ["3001", "3002"];
const BRANCHES = [
  ["7001", "9101"],
  ["7002", "9103"],
] as const;
const SCM_CONFIGS = ["scmcfg-1001-a", "scmcfg-1001-b"];
const PROVISIONED_PROJECTS = ["7001", "7002"];
const NOTIFICATION_PAGE = 3;

/** A small seeded generator (mulberry32): the same seed gives the same sequence on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The member user each client owns (it alone changes that user's role, so the final role is known). */
const userOf = (client: number) => String(5101 + client);

/** The default fixtures plus one member user per client. */
function loadFixtures(): FixtureSet {
  const fixtures = defaultFixtures();
  for (let client = 0; client < CLIENTS; client += 1) {
    fixtures.users.push({
      id: userOf(client),
      name: `Load Client ${client}`,
      email: `load-${client}@acme.example`,
      login: `load-${client}`,
      authDetails: [],
      roles: { [DEPLOYMENT]: "ORG_ROLE_MEMBER" },
    });
  }
  return fixtures;
}

/** One request of a client's sequence: what to send, and what its answer must be. */
interface Step {
  operation: OperationKey;
  method: string;
  path: string;
  body?: unknown;
  /** Extra checks beyond the schema: the answer is about what was asked. */
  about: (json: unknown) => boolean;
  /** What the step changes, for the expected final state. */
  effect?: (expected: ExpectedChanges) => void;
}

interface ExpectedChanges {
  roles: Map<string, string>;
  subscribed: Set<string>;
  provisioned: Set<string>;
}

const SCHEMAS: Record<string, TSchema> = {
  getScan: ScanResponse,
  getBranch: BranchResponse,
  getCurrentUser: CurrentUserResponse,
  getScmApp: ScmAppResponse,
  listNotificationRules: ListNotificationRulesResponse,
  updateUserRole: UpdateUserRoleResponse,
  subscribeScmWebhook: SubscribeScmWebhookResponse,
  provisionWorkflows: ProvisionResult,
};
// The API's own checks, with the formats it registers (date-time): the same a client applies to an answer.
const checkers = new Map(Object.entries(SCHEMAS).map(([key, schema]) => [key, checkerFor(schema)]));

/** The mix: reads weigh 2 each, writes 2 (role) and 1 (webhook, provisioning). */
const MIX: Array<[weight: number, make: (client: number, pick: <T>(items: readonly T[]) => T) => Step]> = [
  [
    2,
    (_c, pick) => {
      const scanId = pick(SCANS);
      return {
        operation: "getScan",
        method: "GET",
        path: `/api/v2/deployments/${DEPLOYMENT}/scans/${scanId}`,
        about: (json) => (json as { scan: { id: string } }).scan.id === scanId,
      };
    },
  ],
  [
    2,
    (_c, pick) => {
      const [projectId, branchId] = pick(BRANCHES);
      return {
        operation: "getBranch",
        method: "GET",
        path: `/api/v2/deployments/${DEPLOYMENT}/projects/${projectId}/branches/${branchId}`,
        about: (json) => String((json as { branch: { id: number } }).branch.id) === branchId,
      };
    },
  ],
  [
    2,
    () => ({
      operation: "getCurrentUser",
      method: "GET",
      path: "/api/auth/users/current",
      about: (json) => {
        const user = (json as { user: { id: string; orgRole: string } }).user;
        return user.id === "501" && user.orgRole === "ORG_ROLE_ADMIN";
      },
    }),
  ],
  [
    2,
    () => ({
      operation: "getScmApp",
      method: "GET",
      path: `/api/scm/deployments/${DEPLOYMENT}/scm_apps/apprq-1001-done`,
      about: (json) => (json as { app: { requestId: string } }).app.requestId === "apprq-1001-done",
    }),
  ],
  [
    2,
    () => ({
      operation: "listNotificationRules",
      method: "POST",
      path: `/api/agent/deployments/${DEPLOYMENT}/actions/list`,
      body: { deploymentId: Number(DEPLOYMENT), options: { optionalLimit: NOTIFICATION_PAGE } },
      about: (json) => {
        const page = json as { notification_rules: unknown[]; cursor?: unknown };
        return page.notification_rules.length === NOTIFICATION_PAGE && page.cursor !== undefined;
      },
    }),
  ],
  [
    2,
    (client, pick) => {
      const userId = userOf(client);
      const newRole = pick(ROLES);
      return {
        operation: "updateUserRole",
        method: "PATCH",
        path: `/api/agent/deployments/${DEPLOYMENT}/users/${userId}/roles`,
        body: { deploymentId: DEPLOYMENT, userId, newRole },
        about: (json) => JSON.stringify(json) === "{}",
        effect: (expected) => expected.roles.set(userId, newRole),
      };
    },
  ],
  [
    1,
    (_c, pick) => {
      const configId = pick(SCM_CONFIGS);
      return {
        operation: "subscribeScmWebhook",
        method: "PUT",
        path: `/api/scm/deployments/${DEPLOYMENT}/subscriptions/${configId}`,
        about: (json) => (json as { configId: string }).configId === configId,
        effect: (expected) => expected.subscribed.add(configId),
      };
    },
  ],
  [
    1,
    (_c, pick) => {
      const projectId = pick(PROVISIONED_PROJECTS);
      return {
        operation: "provisionWorkflows",
        method: "POST",
        path: `/api/agent/deployments/${DEPLOYMENT}/repos/_provision`,
        body: { deploymentId: DEPLOYMENT, filters: { ids: [projectId] } },
        about: (json) => {
          const result = json as { repoFileUrls: Record<string, string>; errors: unknown[] };
          return Object.keys(result.repoFileUrls).join() === projectId && result.errors.length === 0;
        },
        effect: (expected) => expected.provisioned.add(projectId),
      };
    },
  ],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

/** The deterministic request sequence of one client. */
function sequenceOf(client: number): Step[] {
  const random = seeded(0xc0de + client);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  return Array.from({ length: REQUESTS_PER_CLIENT }, () => {
    let roll = random() * TOTAL_WEIGHT;
    const entry = MIX.find(([weight]) => (roll -= weight) < 0) ?? MIX[MIX.length - 1];
    return entry[1](client, pick);
  });
}

interface Tally {
  requests: number;
  unexpected: number;
}

/** Runs one client's sequence over its own keep-alive connection; returns the unexpected answers. */
async function runClient(emulator: EmulatorHandle, steps: Step[], tally: Map<string, Tally>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const problems: string[] = [];
  try {
    for (const step of steps) {
      const body = step.body === undefined ? undefined : JSON.stringify(step.body);
      const exchange = await rawRequest(emulator.baseUrl, step.method, step.path, {
        headers: apiHeaders(emulator.apiToken, body !== undefined),
        ...(body !== undefined ? { body } : {}),
        agent,
      });
      const count = tally.get(step.operation) as Tally;
      count.requests += 1;
      let json: unknown;
      try {
        json = JSON.parse(exchange.body.toString("utf8"));
      } catch {
        json = undefined;
      }
      const valid =
        exchange.status === 200 &&
        exchange.complete &&
        checkers.get(step.operation)?.Check(json) === true &&
        step.about(json);
      if (!valid) {
        count.unexpected += 1;
        problems.push(`${step.method} ${step.path} -> ${exchange.status ?? exchange.failure}`);
      }
    }
  } finally {
    agent.destroy();
  }
  return problems;
}

/** The state the writes must leave: the fixtures with exactly the expected changes. */
function expectedState(fixtures: FixtureSet, changes: ExpectedChanges, actual: RedactedState): unknown {
  const expected = structuredClone(fixtures);
  for (const user of expected.users) {
    const role = changes.roles.get(user.id);
    if (role !== undefined) user.roles[DEPLOYMENT] = role as (typeof ROLES)[number];
  }
  for (const config of expected.scmConfigurations) {
    if (changes.subscribed.has(config.configId)) {
      config.subscription = actual.scmConfigurations.find(
        (c) => c.configId === config.configId,
      )?.subscription;
    }
  }
  for (const project of expected.projects) {
    if (changes.provisioned.has(project.id)) {
      project.workflow = actual.projects.find((p) => p.id === project.id)?.workflow;
    }
  }
  return {
    ...expected,
    apiTokens: expected.apiTokens.map(({ value: _value, ...token }) => token),
    scmAppRequests: expected.scmAppRequests.map(({ code: _code, ...request }) => request),
  };
}

describe("reliability: the emulator under load", function () {
  this.timeout(120_000);
  let emulator: EmulatorHandle | undefined;
  after(async () => {
    await emulator?.close();
  });

  it(`${CLIENTS} concurrent clients x ${REQUESTS_PER_CLIENT} mixed requests: every answer as expected, final state consistent`, async () => {
    const fixtures = loadFixtures();
    emulator = await startEmulator({ quiet: true, fixtures });
    const handle = emulator;
    const sequences = Array.from({ length: CLIENTS }, (_, client) => sequenceOf(client));
    const tally = new Map(Object.keys(SCHEMAS).map((key) => [key, { requests: 0, unexpected: 0 }]));

    const problems = (await Promise.all(sequences.map((steps) => runClient(handle, steps, tally)))).flat();
    expect(problems.slice(0, 10), `${problems.length} unexpected answers`).to.deep.equal([]);

    // Final state: what the writes asked for, and nothing else changed.
    const changes: ExpectedChanges = { roles: new Map(), subscribed: new Set(), provisioned: new Set() };
    for (const steps of sequences) for (const step of steps) step.effect?.(changes);
    const state = handle.control.state();
    expect(state).to.deep.equal(expectedState(fixtures, changes, state));
    for (const configId of changes.subscribed) {
      const config = state.scmConfigurations.find((c) => c.configId === configId);
      expect(config?.subscription?.events, configId).to.include.members(["pull_request", "push"]);
    }
    for (const projectId of changes.provisioned) {
      const project = state.projects.find((p) => p.id === projectId);
      expect(project?.workflow?.fileUrl, projectId).to.match(/\/\.github\/workflows\/codesec\.yml$/);
      expect(project?.workflow?.ghaOptions).to.deep.equal({});
    }
    const admins = state.users.filter((u) => u.roles[DEPLOYMENT] === "ORG_ROLE_ADMIN").map((u) => u.id);
    expect(admins).to.deep.equal(["501"]);

    // The request log kept the most recent requests, each finished with its 200.
    const logged = handle.control.requests();
    expect(logged).to.have.length(REQUEST_LOG_LIMIT);
    expect(logged.filter((e) => e.status !== 200 || e.pending || e.abandoned || e.fault)).to.deep.equal([]);

    const rows = [...tally.entries()].map(([operation, count]) => [
      `\`${operation}\``,
      count.requests,
      count.unexpected,
    ]);
    const total = [...tally.values()].reduce((sum, c) => sum + c.requests, 0);
    const unexpected = [...tally.values()].reduce((sum, c) => sum + c.unexpected, 0);
    expect(total).to.equal(CLIENTS * REQUESTS_PER_CLIENT);
    writeReportSection({
      id: "emulator-load",
      title: "Emulator under load",
      markdown: [
        `An in-process emulator answers ${CLIENTS} clients at once, each sending ${REQUESTS_PER_CLIENT} requests ` +
          "one after another over its own keep-alive connection (`node:http`), in a pseudo-random order from a " +
          "fixed seed per client (so these counts are the same on every run). Reads and idempotent writes are " +
          "mixed; each client alone changes the role of its own member user. An answer is expected when it is " +
          "a complete 200 whose body validates against the operation's response schema (`api/schemas`) and is " +
          "about what was asked.",
        "",
        markdownTable(
          ["operation", "requests", "unexpected answers"],
          [...rows, ["**total**", total, unexpected]],
        ),
        "",
        "Final state: each client's user holds the role its last write set; the SCM configurations and projects " +
          `that were written hold the subscription and workflow asked for; nothing else changed (${admins.length} ` +
          `admin, as in the fixtures). The request log's last ${REQUEST_LOG_LIMIT} entries are all finished 200s.`,
      ].join("\n"),
    });
  });
});
