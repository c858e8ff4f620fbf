/**
 * The emulator's in-memory state and its persistence. No HTTP here: routes and the control surface call
 * these methods, and every mutation is saved at once (atomically) when a state file is configured.
 *
 * A request costs what it touches, however large the data set: collections are indexed (./table), readers
 * copy only the items they return (so nothing outside this module can change the state without going
 * through a mutation, and therefore without it being saved), and a mutation replaces only the items it
 * changes. A mutation is atomic: when it fails, or its save fails, every change it made is undone. Only
 * the save itself writes the whole data set (the state file is one JSON document).
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import type { OrgRole, Scan, ScmWebhookSubscription } from "pulumi-codesec/api";
import {
  fixtureSetProblems,
  withAllCollections,
  type FixtureFile,
  type FixtureApiToken,
  type FixtureDeployment,
  type FixtureNotificationRule,
  type FixtureProject,
  type FixtureSample,
  type FixtureScmAppRequest,
  type FixtureScmConfiguration,
  type FixtureSet,
  type FixtureUser,
  type ProvisionedWorkflow,
  type ScmAppDetails,
  type FixtureBranch,
} from "./fixtures";
import { generateNotificationRules } from "./generatedRules";
import { Table, type Undo } from "./table";

/** Marks a JSON file as an emulator state file. */
export const STATE_FORMAT = "codesec-emulator-state";
export const STATE_VERSION = 1;

/** What a `--state` file holds: the data (same shape as a fixture set) and the JWT signing key. */
export interface StateFileContents {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  savedAt: string;
  /** HS256 key for user JWTs (and cursor tokens), base64url. A secret. */
  signingKey: string;
  data: FixtureSet;
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

/** A fresh path for a temporary copy of `file`, next to it: `.<name>.<pid>.<12 hex>.tmp`. */
export function temporaryCopyPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * Removes the temporary copies of `file` that an interrupted `writeFileAtomically` left in its directory
 * (a process killed between writing and renaming: they hold tokens, one-time codes and the signing key).
 * Only names of exactly that pattern are touched. Returns the names removed.
 */
export function removeStaleTemporaryCopies(file: string): string[] {
  const dir = dirname(file);
  const escaped = basename(file).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^\\.${escaped}\\.\\d+\\.[0-9a-f]{12}\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no directory yet: nothing was ever written there
  }
  const stale = names.filter((name) => pattern.test(name));
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale;
}

/**
 * Writes `text` to `file` so that a reader (or a crash) sees either the old or the new contents, never a
 * mix: write a temporary file in the same directory, fsync it, rename it over the target, fsync the
 * directory. The file is readable by its owner only, since it holds credentials.
 */
export function writeFileAtomically(file: string, text: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = temporaryCopyPath(file);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some platforms cannot open or fsync a directory; the rename itself is still atomic there.
  }
}

/** A fresh random HS256 key (256 bits, base64url). */
export function generateSigningKey(): string {
  return randomBytes(32).toString("base64url");
}

function readStateFile(file: string): StateFileContents {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`state file ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  const state = parsed as Partial<StateFileContents> | null;
  if (!state || state.format !== STATE_FORMAT || state.version !== STATE_VERSION) {
    throw new Error(
      `state file ${file} is not an emulator state file (expected format "${STATE_FORMAT}" version ${STATE_VERSION}); ` +
        "move it away or point --state at another file",
    );
  }
  if (typeof state.signingKey !== "string" || Buffer.from(state.signingKey, "base64url").length < 32) {
    throw new Error(`state file ${file} has no usable signingKey`);
  }
  const problems = fixtureSetProblems(state.data);
  if (problems.length > 0) {
    throw new Error(`state file ${file} holds invalid data:\n  - ${problems.join("\n  - ")}`);
  }
  // The state file's data follows the fixture file's rules: a collection left out by hand is empty.
  return { ...(state as StateFileContents), data: withAllCollections(state.data as FixtureFile) };
}

/** Options of `EmulatorStore.open`. */
export interface StoreOptions {
  /** The data to seed from when there is no state file yet, and to restore on reset. */
  fixtures: FixtureSet;
  /** Persist here: loaded at start when present, else seeded from `fixtures`; saved after every mutation. */
  stateFile?: string;
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

/** The data, indexed: what the store reads and changes. */
interface IndexedData {
  deployments: Table<FixtureDeployment, "id">;
  users: Table<FixtureUser, "id">;
  apiTokens: Table<FixtureApiToken, "id" | "value">;
  projects: Table<FixtureProject, "id", "deploymentId">;
  branches: Table<FixtureBranch, "id", "projectId">;
  scans: Table<Scan, "id", "deploymentId">;
  scmConfigurations: Table<FixtureScmConfiguration, "deploymentAndConfigId", "deploymentId">;
  scmAppRequests: Table<FixtureScmAppRequest, "requestId">;
  notificationRules: Table<FixtureNotificationRule, "id">;
  /** Each deployment's rules by ascending id (operation 10 pages through them by id). */
  rulesByDeployment: Map<string, FixtureNotificationRule[]>;
  /** How many admins each deployment has (operation 1's last-admin rule asks on every demotion). */
  adminCounts: Map<string, number>;
  sample: FixtureSample | undefined;
}

const byDeploymentId = (item: { deploymentId: string }) => item.deploymentId;
const scmConfigurationKey = (deploymentId: string, configId: string) => `${deploymentId}/${configId}`;

/** Indexes `data` (taken, not copied: its items are frozen). */
function indexData(data: FixtureSet): IndexedData {
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
  return {
    deployments: new Table(data.deployments, { id: (d) => d.id }),
    users: new Table(data.users, { id: (u) => u.id }),
    apiTokens: new Table(data.apiTokens, { id: (t) => t.id, value: (t) => t.value }),
    projects: new Table(data.projects, { id: (p) => p.id }, { deploymentId: byDeploymentId }),
    branches: new Table(data.branches, { id: (b) => String(b.id) }, { projectId: (b) => b.projectId }),
    scans: new Table(data.scans, { id: (s) => s.id }, { deploymentId: byDeploymentId }),
    scmConfigurations: new Table(
      data.scmConfigurations,
      { deploymentAndConfigId: (c) => scmConfigurationKey(c.deploymentId, c.configId) },
      { deploymentId: byDeploymentId },
    ),
    scmAppRequests: new Table(data.scmAppRequests, { requestId: (r) => r.requestId }),
    notificationRules: new Table(data.notificationRules, { id: (r) => String(r.id) }),
    rulesByDeployment,
    adminCounts,
    sample: data.sample,
  };
}

/** The data as a fixture set (the tables' own frozen items: copy before handing it out). */
function dataOf(indexed: IndexedData): FixtureSet {
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
function firstAfter(rules: readonly FixtureNotificationRule[], afterId: number): number {
  let low = 0;
  let high = rules.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rules[middle].id <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}

function isoSeconds(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** In-memory state of the emulated platform, optionally persisted to a state file. */
export class EmulatorStore {
  private data: IndexedData;
  private readonly key: string;
  private readonly fixtures: FixtureSet;
  private readonly stateFile: string | undefined;
  /** Whether the data came from an existing state file (rather than the fixtures). */
  readonly loadedFromStateFile: boolean;

  private constructor(options: StoreOptions, data: FixtureSet, key: string, loaded: boolean) {
    this.fixtures = structuredClone(options.fixtures);
    this.stateFile = options.stateFile;
    this.data = indexData(data);
    this.key = key;
    this.loadedFromStateFile = loaded;
  }

  /**
   * Loads the state file when it exists; otherwise seeds from the fixtures (and writes the state file).
   * Temporary copies of the state file left by a crash during a save are removed first: the state file
   * serves one emulator at a time, so no other save can be under way.
   */
  static open(options: StoreOptions): EmulatorStore {
    if (options.stateFile) removeStaleTemporaryCopies(options.stateFile);
    if (options.stateFile && existsSync(options.stateFile)) {
      const state = readStateFile(options.stateFile);
      return new EmulatorStore(options, state.data, state.signingKey, true);
    }
    const store = new EmulatorStore(options, structuredClone(options.fixtures), generateSigningKey(), false);
    store.save();
    return store;
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
    this.mutate((undo) => {
      const user = this.data.users.find("id", userId);
      if (!user) throw new Error(`unknown user ${userId}`);
      const before = Object.hasOwn(user.roles, deploymentId) ? user.roles[deploymentId] : undefined;
      const next = structuredClone(user);
      if (role === null) delete next.roles[deploymentId];
      else next.roles[deploymentId] = role;
      undo.push(this.data.users.replace("id", userId, next));
      const change = (role === "ORG_ROLE_ADMIN" ? 1 : 0) - (before === "ORG_ROLE_ADMIN" ? 1 : 0);
      if (change !== 0) {
        const counts = this.data.adminCounts;
        const previous = counts.get(deploymentId) ?? 0;
        counts.set(deploymentId, previous + change);
        undo.push(() => counts.set(deploymentId, previous));
      }
    });
  }

  /** Records the CI workflow file written into a project's repository. */
  recordWorkflow(projectId: string, workflow: ProvisionedWorkflow): void {
    this.mutate((undo) => {
      const project = this.data.projects.find("id", projectId);
      if (!project) throw new Error(`unknown project ${projectId}`);
      undo.push(
        this.data.projects.replace("id", projectId, { ...project, workflow: structuredClone(workflow) }),
      );
    });
  }

  setSubscription(deploymentId: string, configId: string, subscription: ScmWebhookSubscription): void {
    this.mutate((undo) => {
      const key = scmConfigurationKey(deploymentId, configId);
      const config = this.data.scmConfigurations.find("deploymentAndConfigId", key);
      if (!config) throw new Error(`unknown SCM configuration ${configId}`);
      const next = { ...config, subscription: structuredClone(subscription) };
      undo.push(this.data.scmConfigurations.replace("deploymentAndConfigId", key, next));
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
    this.mutate((undo) => {
      undo.push(this.data.scmAppRequests.add(structuredClone(request)));
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
    return this.mutate((undo) => {
      const token = this.data.apiTokens.find("id", id);
      if (!token) throw new Error(`unknown API token ${id}`);
      const next = { ...token, revokedAt: token.revokedAt ?? isoSeconds(at) };
      undo.push(this.data.apiTokens.replace("id", id, next));
      return copy(next);
    });
  }

  addApiToken(token: FixtureApiToken): void {
    this.mutate((undo) => {
      undo.push(this.data.apiTokens.add(structuredClone(token)));
    });
  }

  /**
   * Adds `count` generated notification rules to a deployment (./generatedRules), with ids after the
   * highest rule id of the data, in one mutation (one save): the way to give the emulator a large store.
   */
  addNotificationRules(deploymentId: string, count: number): { firstId: number; lastId: number } {
    return this.mutate((undo) => {
      if (!this.data.deployments.find("id", deploymentId))
        throw new Error(`unknown deployment ${deploymentId}`);
      const firstId = this.data.notificationRules.items.reduce((max, rule) => Math.max(max, rule.id), 0) + 1;
      const byDeployment = this.data.rulesByDeployment;
      const sorted = byDeployment.get(deploymentId) ?? [];
      if (!byDeployment.has(deploymentId)) {
        byDeployment.set(deploymentId, sorted);
        undo.push(() => byDeployment.delete(deploymentId));
      }
      const lengthBefore = sorted.length;
      undo.push(() => {
        sorted.length = lengthBefore;
      });
      for (const rule of generateNotificationRules(deploymentId, firstId, count)) {
        undo.push(this.data.notificationRules.add(rule));
        sorted.push(rule); // above every existing id, so the deployment's list stays sorted
      }
      return { firstId, lastId: firstId + count - 1 };
    });
  }

  /** Restores the fixtures the store was opened with (the signing key is kept, so JWTs stay valid). */
  reset(): void {
    const previous = this.data;
    this.data = indexData(structuredClone(this.fixtures));
    try {
      this.save();
    } catch (error) {
      this.data = previous;
      throw error;
    }
  }

  private changeScmAppRequest(
    requestId: string,
    change: (request: FixtureScmAppRequest) => FixtureScmAppRequest,
  ): FixtureScmAppRequest {
    return this.mutate((undo) => {
      const request = this.data.scmAppRequests.find("requestId", requestId);
      if (!request) throw new Error(`unknown SCM app request ${requestId}`);
      const next = change(request);
      undo.push(this.data.scmAppRequests.replace("requestId", requestId, next));
      return copy(next);
    });
  }

  /**
   * Runs `change`, which records how to undo each step, then saves. When the change or the save throws,
   * the steps are undone (last first), so that a failed mutation leaves memory and file as they were.
   */
  private mutate<T>(change: (undo: Undo[]) => T): T {
    const undo: Undo[] = [];
    try {
      const result = change(undo);
      this.save();
      return result;
    } catch (error) {
      for (let i = undo.length - 1; i >= 0; i -= 1) undo[i]();
      throw error;
    }
  }

  private save(): void {
    if (!this.stateFile) return;
    const contents: StateFileContents = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: new Date().toISOString(),
      signingKey: this.key,
      data: dataOf(this.data),
    };
    writeFileAtomically(this.stateFile, `${JSON.stringify(contents, null, 2)}\n`);
  }
}

function copy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
