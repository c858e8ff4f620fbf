/**
 * The emulator's in-memory state. No HTTP here: routes and the control surface call these methods, and
 * every mutation is made durable before it returns when a state file is configured (./stateJournal: one
 * journal line per mutation, holding the items it changed).
 *
 * A request costs what it touches, however large the data set: collections are indexed (./indexedData),
 * readers copy only the items they return (so nothing outside this module can change the state without
 * going through a mutation, and therefore without it being saved), and a mutation replaces and saves only
 * the items it changes. A mutation is atomic: when it fails, or its save fails, every change it made is
 * undone.
 */
import type { OrgRole, Scan, ScmWebhookSubscription } from "pulumi-codesec/api";
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
  ProvisionedWorkflow,
  ScmAppDetails,
} from "./fixtureSchema";
import { generateNotificationRules } from "./generatedRules";
import {
  dataOf,
  firstAfter,
  indexData,
  scmConfigurationKey,
  type CollectionName,
  type IndexedData,
} from "./indexedData";
import { generateSigningKey } from "./stateFile";
import { StatePersistence, type CompactionPolicy, type StoredChange } from "./stateJournal";
import type { Undo } from "./table";

/** What a mutation did: how to undo each of its steps, and the items it changed (what the journal records). */
class MutationSteps {
  readonly undo: Undo[] = [];
  readonly changes: StoredChange[] = [];

  /** Notes that `item` of `collection` was added or replaced, and how to undo it. */
  changed(collection: CollectionName, item: unknown, undo: Undo): void {
    this.undo.push(undo);
    this.changes.push({ put: collection, item });
  }
}

/** The state without any secret: token values, one-time codes and the signing key are left out. */
export interface RedactedState {
  deployments: FixtureDeployment[];
  users: FixtureUser[];
  apiTokens: Array<Omit<FixtureApiToken, "value">>;
  projects: FixtureProject[];
  branches: FixtureBranch[];
  scans: Scan[];
  scmConfigurations: FixtureScmConfiguration[];
  scmAppRequests: Array<Omit<FixtureScmAppRequest, "code">>;
  notificationRules: FixtureNotificationRule[];
  sample?: FixtureSample;
}

/** Options of `EmulatorStore.open`. */
export interface StoreOptions {
  /**
   * The data to seed from when there is no state file yet, and to restore on reset: JSON data (a set that
   * parseFixtureSet accepted, or the default one), as the store keeps it as JSON text.
   */
  fixtures: FixtureSet;
  /** Persist here: loaded at start when present, else seeded from `fixtures`; saved after every mutation. */
  stateFile?: string;
  /** When the state file's journal is folded into it (tests make it small; default: ./stateJournal's). */
  compaction?: Partial<CompactionPolicy>;
}

/** A page of notification rules (`EmulatorStore.notificationRulePage`). */
export interface NotificationRulePageRequest {
  /** Start after this rule id (default: from the first rule). */
  afterId?: number;
  /** At most this many rules. */
  limit: number;
  /** Only rules for which this holds (default: every rule). */
  matches?: (rule: Readonly<FixtureNotificationRule>) => boolean;
}

/** Rules of one page, copied, and whether more matching rules follow. */
export interface NotificationRulePage {
  rules: FixtureNotificationRule[];
  more: boolean;
}

function isoSeconds(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** In-memory state of the emulated platform, optionally persisted to a state file. */
export class EmulatorStore {
  private data: IndexedData;
  private readonly key: string;
  /**
   * The fixtures to restore on reset, as JSON text: one string, which the garbage collector never has to
   * trace, where a second copy of the objects would double the heap every major collection marks (at
   * 50,000 rules, that marking landed inside the first writes after start and doubled their cost).
   */
  private readonly fixturesText: string;
  private readonly persistence: StatePersistence | undefined;
  /** Whether the data came from an existing state file (rather than the fixtures). */
  readonly loadedFromStateFile: boolean;
  /** Whether the state file's journal ended with a record cut short by a crash (ignored: never acknowledged). */
  readonly ignoredTornRecord: boolean;

  private constructor(
    fixturesText: string,
    opened: {
      data: FixtureSet;
      signingKey: string;
      loaded: boolean;
      tornTail: boolean;
      persistence?: StatePersistence;
    },
  ) {
    this.fixturesText = fixturesText;
    this.persistence = opened.persistence;
    this.data = indexData(opened.data);
    this.key = opened.signingKey;
    this.loadedFromStateFile = opened.loaded;
    this.ignoredTornRecord = opened.tornTail;
  }

  /**
   * Loads the state file (its snapshot and journal) when it exists; otherwise seeds from the fixtures (and
   * writes the state file). See ./stateJournal.
   */
  static open(options: StoreOptions): EmulatorStore {
    // The fixtures are JSON data: startEmulator passes the default set or a checked one, and the check
    // (fixtureSetProblems) refuses a value JSON would drop or change (a function, a Date, an undefined
    // field). So their text is an exact copy, and parsing it gives the store its own objects to seed from.
    const fixturesText = JSON.stringify(options.fixtures);
    const seed = JSON.parse(fixturesText) as FixtureSet;
    if (!options.stateFile) {
      return new EmulatorStore(fixturesText, {
        data: seed,
        signingKey: generateSigningKey(),
        loaded: false,
        tornTail: false,
      });
    }
    return new EmulatorStore(
      fixturesText,
      StatePersistence.open(options.stateFile, seed, options.compaction),
    );
  }

  /** The HS256 key that signs user JWTs and cursor tokens. */
  get signingKey(): Uint8Array {
    return Buffer.from(this.key, "base64url");
  }

  // ---- reading (each returns copies of what it returns, and nothing else) ---------------------------

  deployment(id: string): FixtureDeployment | undefined {
    return copy(this.data.deployments.find("id", id));
  }

  user(id: string): FixtureUser | undefined {
    return copy(this.data.users.find("id", id));
  }

  /** The role `userId` holds in `deploymentId`, or undefined when not a member. */
  roleOf(userId: string, deploymentId: string): OrgRole | undefined {
    const user = this.data.users.find("id", userId);
    return user && Object.hasOwn(user.roles, deploymentId) ? user.roles[deploymentId] : undefined;
  }

  /** How many users are admins of `deploymentId`. */
  adminCount(deploymentId: string): number {
    return this.data.adminCounts.get(deploymentId) ?? 0;
  }

  apiTokenByValue(value: string): FixtureApiToken | undefined {
    return copy(this.data.apiTokens.find("value", value));
  }

  apiToken(id: string): FixtureApiToken | undefined {
    return copy(this.data.apiTokens.find("id", id));
  }

  project(id: string): FixtureProject | undefined {
    return copy(this.data.projects.find("id", id));
  }

  /** The projects of a deployment, in fixture order. */
  projects(deploymentId: string): FixtureProject[] {
    return copy(this.data.projects.group("deploymentId", deploymentId));
  }

  branch(id: number): FixtureBranch | undefined {
    return copy(this.data.branches.find("id", String(id)));
  }

  scan(id: string): Scan | undefined {
    return copy(this.data.scans.find("id", id));
  }

  scmConfiguration(deploymentId: string, configId: string): FixtureScmConfiguration | undefined {
    return copy(
      this.data.scmConfigurations.find("deploymentAndConfigId", scmConfigurationKey(deploymentId, configId)),
    );
  }

  scmAppRequest(requestId: string): FixtureScmAppRequest | undefined {
    return copy(this.data.scmAppRequests.find("requestId", requestId));
  }

  /** The notification rules of a deployment, by ascending id. */
  notificationRules(deploymentId: string): FixtureNotificationRule[] {
    return copy(this.data.rulesByDeployment.get(deploymentId) ?? []);
  }

  /**
   * One page of a deployment's notification rules by ascending id: the first `limit` matching rules with
   * an id above `afterId`. It seeks to `afterId` (no scan of the rules before it) and copies only the page.
   */
  notificationRulePage(deploymentId: string, request: NotificationRulePageRequest): NotificationRulePage {
    const rules = this.data.rulesByDeployment.get(deploymentId) ?? [];
    const page: FixtureNotificationRule[] = [];
    let more = false;
    for (let i = firstAfter(rules, request.afterId ?? Number.NEGATIVE_INFINITY); i < rules.length; i += 1) {
      const rule = rules[i];
      if (request.matches && !request.matches(rule)) continue;
      if (page.length === request.limit) {
        more = true;
        break;
      }
      page.push(rule);
    }
    return { rules: copy(page), more };
  }

  /** Deployments that list `userId` as able to join and that the user is not yet a member of. */
  joinableDeployments(userId: string): FixtureDeployment[] {
    return copy(
      this.data.deployments.items.filter(
        (d) => d.joinableUserIds.includes(userId) && this.roleOf(userId, d.id) === undefined,
      ),
    );
  }

  /** Every user with a role in `deploymentId`, in fixture order. */
  members(deploymentId: string): FixtureUser[] {
    return copy(this.data.users.items.filter((u) => Object.hasOwn(u.roles, deploymentId)));
  }

  allApiTokens(): FixtureApiToken[] {
    return copy([...this.data.apiTokens.items]);
  }

  allScmAppRequests(): FixtureScmAppRequest[] {
    return copy([...this.data.scmAppRequests.items]);
  }

  scmConfigurations(deploymentId: string): FixtureScmConfiguration[] {
    return copy(this.data.scmConfigurations.group("deploymentId", deploymentId));
  }

  /** Scans of a deployment, in fixture order. */
  scans(deploymentId: string): Scan[] {
    return copy(this.data.scans.group("deploymentId", deploymentId));
  }

  /** Branches of a project, in fixture order. */
  branches(projectId: string): FixtureBranch[] {
    return copy(this.data.branches.group("projectId", projectId));
  }

  deployments(): FixtureDeployment[] {
    return copy([...this.data.deployments.items]);
  }

  /** The sample designations of the data (may be partial or absent). */
  sampleDesignations(): FixtureSample {
    return copy(this.data.sample ?? {});
  }

  /** The whole data, secrets included (for tests; a copy of everything). */
  snapshot(): FixtureSet {
    return copy(dataOf(this.data));
  }

  /** The whole data without any secret (`GET /__emulator/state`). */
  redactedSnapshot(): RedactedState {
    const data = this.snapshot();
    return {
      ...data,
      apiTokens: data.apiTokens.map(({ value: _value, ...token }) => token),
      scmAppRequests: data.scmAppRequests.map(({ code: _code, ...request }) => request),
    };
  }

  // ---- writing (each one is saved at once; each replaces only the items it changes) -----------------

  /** Sets (or with `null`, removes) the role of a user in a deployment. */
  setRole(userId: string, deploymentId: string, role: OrgRole | null): void {
    this.mutate((steps) => {
      const user = this.data.users.find("id", userId);
      if (!user) throw new Error(`unknown user ${userId}`);
      const before = Object.hasOwn(user.roles, deploymentId) ? user.roles[deploymentId] : undefined;
      const next = structuredClone(user);
      if (role === null) delete next.roles[deploymentId];
      else next.roles[deploymentId] = role;
      steps.changed("users", next, this.data.users.replace("id", userId, next));
      const change = (role === "ORG_ROLE_ADMIN" ? 1 : 0) - (before === "ORG_ROLE_ADMIN" ? 1 : 0);
      if (change !== 0) {
        const counts = this.data.adminCounts;
        const previous = counts.get(deploymentId) ?? 0;
        counts.set(deploymentId, previous + change);
        steps.undo.push(() => counts.set(deploymentId, previous));
      }
    });
  }

  /** Records the CI workflow file written into a project's repository. */
  recordWorkflow(projectId: string, workflow: ProvisionedWorkflow): void {
    this.mutate((steps) => {
      const project = this.data.projects.find("id", projectId);
      if (!project) throw new Error(`unknown project ${projectId}`);
      const next = { ...project, workflow: structuredClone(workflow) };
      steps.changed("projects", next, this.data.projects.replace("id", projectId, next));
    });
  }

  setSubscription(deploymentId: string, configId: string, subscription: ScmWebhookSubscription): void {
    this.mutate((steps) => {
      const key = scmConfigurationKey(deploymentId, configId);
      const config = this.data.scmConfigurations.find("deploymentAndConfigId", key);
      if (!config) throw new Error(`unknown SCM configuration ${configId}`);
      const next = { ...config, subscription: structuredClone(subscription) };
      steps.changed(
        "scmConfigurations",
        next,
        this.data.scmConfigurations.replace("deploymentAndConfigId", key, next),
      );
    });
  }

  /** Marks a pending SCM app request completed (its app becomes readable). */
  completeScmAppRequest(requestId: string, at: Date): FixtureScmAppRequest {
    return this.changeScmAppRequest(requestId, (request) => ({
      ...request,
      state: "completed",
      completedAt: isoSeconds(at),
    }));
  }

  addScmAppRequest(request: FixtureScmAppRequest): void {
    this.mutate((steps) => {
      const added = structuredClone(request);
      steps.changed("scmAppRequests", added, this.data.scmAppRequests.add(added));
    });
  }

  /** Changes fields of the app behind an SCM app request (an out-of-band edit in the platform's UI). */
  updateScmApp(requestId: string, patch: Partial<ScmAppDetails>): FixtureScmAppRequest {
    return this.changeScmAppRequest(requestId, (request) => ({
      ...request,
      app: { ...request.app, ...structuredClone(patch) },
    }));
  }

  /** Marks an API token revoked (from then on it answers 401); a token already revoked keeps its time. */
  revokeApiToken(id: string, at: Date): FixtureApiToken {
    return this.mutate((steps) => {
      const token = this.data.apiTokens.find("id", id);
      if (!token) throw new Error(`unknown API token ${id}`);
      const next = { ...token, revokedAt: token.revokedAt ?? isoSeconds(at) };
      steps.changed("apiTokens", next, this.data.apiTokens.replace("id", id, next));
      return copy(next);
    });
  }

  addApiToken(token: FixtureApiToken): void {
    this.mutate((steps) => {
      const added = structuredClone(token);
      steps.changed("apiTokens", added, this.data.apiTokens.add(added));
    });
  }

  /**
   * Adds `count` generated notification rules to a deployment (./generatedRules), with ids after the
   * highest rule id of the data, in one mutation (one save): the way to give the emulator a large store.
   */
  addNotificationRules(deploymentId: string, count: number): { firstId: number; lastId: number } {
    return this.mutate((steps) => {
      if (!this.data.deployments.find("id", deploymentId))
        throw new Error(`unknown deployment ${deploymentId}`);
      const firstId = this.data.notificationRules.items.reduce((max, rule) => Math.max(max, rule.id), 0) + 1;
      const byDeployment = this.data.rulesByDeployment;
      const sorted = byDeployment.get(deploymentId) ?? [];
      if (!byDeployment.has(deploymentId)) {
        byDeployment.set(deploymentId, sorted);
        steps.undo.push(() => byDeployment.delete(deploymentId));
      }
      const lengthBefore = sorted.length;
      steps.undo.push(() => {
        sorted.length = lengthBefore;
      });
      for (const rule of generateNotificationRules(deploymentId, firstId, count)) {
        steps.changed("notificationRules", rule, this.data.notificationRules.add(rule));
        sorted.push(rule); // above every existing id, so the deployment's list stays sorted
      }
      return { firstId, lastId: firstId + count - 1 };
    });
  }

  /** Restores the fixtures the store was opened with (the signing key is kept, so JWTs stay valid). */
  reset(): void {
    const previous = this.data;
    this.data = indexData(JSON.parse(this.fixturesText) as FixtureSet);
    try {
      this.persistence?.rewrite(dataOf(this.data));
    } catch (error) {
      this.data = previous;
      throw error;
    }
  }

  private changeScmAppRequest(
    requestId: string,
    change: (request: FixtureScmAppRequest) => FixtureScmAppRequest,
  ): FixtureScmAppRequest {
    return this.mutate((steps) => {
      const request = this.data.scmAppRequests.find("requestId", requestId);
      if (!request) throw new Error(`unknown SCM app request ${requestId}`);
      const next = change(request);
      steps.changed("scmAppRequests", next, this.data.scmAppRequests.replace("requestId", requestId, next));
      return copy(next);
    });
  }

  /**
   * Runs `change`, which records each step (how to undo it, and the item it changed), then makes the
   * changed items durable. When the change or its save throws, the steps are undone (last first), so that
   * a failed mutation leaves memory and files as they were.
   */
  private mutate<T>(change: (steps: MutationSteps) => T): T {
    const steps = new MutationSteps();
    try {
      const result = change(steps);
      this.persistence?.append(steps.changes, () => dataOf(this.data));
      return result;
    } catch (error) {
      for (let i = steps.undo.length - 1; i >= 0; i -= 1) steps.undo[i]();
      throw error;
    }
  }
}

function copy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
