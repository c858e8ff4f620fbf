/**
 * The emulator's in-memory state and its persistence. No HTTP here: routes and the control surface call
 * these methods, and every mutation is saved at once (atomically) when a state file is configured.
 *
 * Readers hand out copies, so nothing outside this module can change the state without going through a
 * mutation (and therefore without it being saved).
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

/** In-memory state of the emulated platform, optionally persisted to a state file. */
export class EmulatorStore {
  private data: FixtureSet;
  private readonly key: string;
  private readonly fixtures: FixtureSet;
  private readonly stateFile: string | undefined;
  /** Whether the data came from an existing state file (rather than the fixtures). */
  readonly loadedFromStateFile: boolean;

  private constructor(options: StoreOptions, data: FixtureSet, key: string, loaded: boolean) {
    this.fixtures = structuredClone(options.fixtures);
    this.stateFile = options.stateFile;
    this.data = data;
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

  // ---- reading --------------------------------------------------------------------------------------

  deployment(id: string): FixtureDeployment | undefined {
    return copy(this.data.deployments.find((d) => d.id === id));
  }

  user(id: string): FixtureUser | undefined {
    return copy(this.data.users.find((u) => u.id === id));
  }

  /** The role `userId` holds in `deploymentId`, or undefined when not a member. */
  roleOf(userId: string, deploymentId: string): OrgRole | undefined {
    const user = this.data.users.find((u) => u.id === userId);
    return user && Object.hasOwn(user.roles, deploymentId) ? user.roles[deploymentId] : undefined;
  }

  /** How many users are admins of `deploymentId`. */
  adminCount(deploymentId: string): number {
    return this.data.users.filter((u) => u.roles[deploymentId] === "ORG_ROLE_ADMIN").length;
  }

  apiTokenByValue(value: string): FixtureApiToken | undefined {
    return copy(this.data.apiTokens.find((t) => t.value === value));
  }

  apiToken(id: string): FixtureApiToken | undefined {
    return copy(this.data.apiTokens.find((t) => t.id === id));
  }

  project(id: string): FixtureProject | undefined {
    return copy(this.data.projects.find((p) => p.id === id));
  }

  /** The projects of a deployment, in fixture order. */
  projects(deploymentId: string): FixtureProject[] {
    return copy(this.data.projects.filter((p) => p.deploymentId === deploymentId));
  }

  branch(id: number): FixtureBranch | undefined {
    return copy(this.data.branches.find((b) => b.id === id));
  }

  scan(id: string): Scan | undefined {
    return copy(this.data.scans.find((s) => s.id === id));
  }

  scmConfiguration(deploymentId: string, configId: string): FixtureScmConfiguration | undefined {
    return copy(
      this.data.scmConfigurations.find((c) => c.deploymentId === deploymentId && c.configId === configId),
    );
  }

  scmAppRequest(requestId: string): FixtureScmAppRequest | undefined {
    return copy(this.data.scmAppRequests.find((r) => r.requestId === requestId));
  }

  /** The notification rules of a deployment, by ascending id. */
  notificationRules(deploymentId: string): FixtureNotificationRule[] {
    return copy(
      this.data.notificationRules.filter((r) => r.deploymentId === deploymentId).sort((a, b) => a.id - b.id),
    );
  }

  /** Deployments that list `userId` as able to join and that the user is not yet a member of. */
  joinableDeployments(userId: string): FixtureDeployment[] {
    return copy(
      this.data.deployments.filter(
        (d) => d.joinableUserIds.includes(userId) && this.roleOf(userId, d.id) === undefined,
      ),
    );
  }

  /** Every user with a role in `deploymentId`, in fixture order. */
  members(deploymentId: string): FixtureUser[] {
    return copy(this.data.users.filter((u) => Object.hasOwn(u.roles, deploymentId)));
  }

  allApiTokens(): FixtureApiToken[] {
    return copy(this.data.apiTokens);
  }

  allScmAppRequests(): FixtureScmAppRequest[] {
    return copy(this.data.scmAppRequests);
  }

  scmConfigurations(deploymentId: string): FixtureScmConfiguration[] {
    return copy(this.data.scmConfigurations.filter((c) => c.deploymentId === deploymentId));
  }

  /** Scans of a deployment, in fixture order. */
  scans(deploymentId: string): Scan[] {
    return copy(this.data.scans.filter((s) => s.deploymentId === deploymentId));
  }

  /** Branches of a project, in fixture order. */
  branches(projectId: string): FixtureBranch[] {
    return copy(this.data.branches.filter((b) => b.projectId === projectId));
  }

  deployments(): FixtureDeployment[] {
    return copy(this.data.deployments);
  }

  /** The sample designations of the data (may be partial or absent). */
  sampleDesignations(): FixtureSample {
    return copy(this.data.sample ?? {});
  }

  /** The whole data, secrets included (for the state file and tests). */
  snapshot(): FixtureSet {
    return copy(this.data);
  }

  /** The whole data without any secret (`GET /__emulator/state`). */
  redactedSnapshot(): RedactedState {
    const data = copy(this.data);
    return {
      ...data,
      apiTokens: data.apiTokens.map(({ value: _value, ...token }) => token),
      scmAppRequests: data.scmAppRequests.map(({ code: _code, ...request }) => request),
    };
  }

  // ---- writing (each one is saved at once) ----------------------------------------------------------

  /** Sets (or with `null`, removes) the role of a user in a deployment. */
  setRole(userId: string, deploymentId: string, role: OrgRole | null): void {
    this.mutate((data) => {
      const user = data.users.find((u) => u.id === userId);
      if (!user) throw new Error(`unknown user ${userId}`);
      if (role === null) delete user.roles[deploymentId];
      else user.roles[deploymentId] = role;
    });
  }

  /** Records the CI workflow file written into a project's repository. */
  recordWorkflow(projectId: string, workflow: ProvisionedWorkflow): void {
    this.mutate((data) => {
      const project = data.projects.find((p) => p.id === projectId);
      if (!project) throw new Error(`unknown project ${projectId}`);
      project.workflow = structuredClone(workflow);
    });
  }

  setSubscription(deploymentId: string, configId: string, subscription: ScmWebhookSubscription): void {
    this.mutate((data) => {
      const config = data.scmConfigurations.find(
        (c) => c.deploymentId === deploymentId && c.configId === configId,
      );
      if (!config) throw new Error(`unknown SCM configuration ${configId}`);
      config.subscription = structuredClone(subscription);
    });
  }

  /** Marks a pending SCM app request completed (its app becomes readable). */
  completeScmAppRequest(requestId: string, at: Date): FixtureScmAppRequest {
    return this.mutate((data) => {
      const request = data.scmAppRequests.find((r) => r.requestId === requestId);
      if (!request) throw new Error(`unknown SCM app request ${requestId}`);
      request.state = "completed";
      request.completedAt = at.toISOString().replace(/\.\d{3}Z$/, "Z");
      return copy(request);
    });
  }

  addScmAppRequest(request: FixtureScmAppRequest): void {
    this.mutate((data) => {
      data.scmAppRequests.push(structuredClone(request));
    });
  }

  /** Changes fields of the app behind an SCM app request (an out-of-band edit in the platform's UI). */
  updateScmApp(requestId: string, patch: Partial<ScmAppDetails>): FixtureScmAppRequest {
    return this.mutate((data) => {
      const request = data.scmAppRequests.find((r) => r.requestId === requestId);
      if (!request) throw new Error(`unknown SCM app request ${requestId}`);
      request.app = { ...request.app, ...structuredClone(patch) };
      return copy(request);
    });
  }

  /** Marks an API token revoked (from then on it answers 401); a token already revoked keeps its time. */
  revokeApiToken(id: string, at: Date): FixtureApiToken {
    return this.mutate((data) => {
      const token = data.apiTokens.find((t) => t.id === id);
      if (!token) throw new Error(`unknown API token ${id}`);
      token.revokedAt ??= at.toISOString().replace(/\.\d{3}Z$/, "Z");
      return copy(token);
    });
  }

  addApiToken(token: FixtureApiToken): void {
    this.mutate((data) => {
      data.apiTokens.push(structuredClone(token));
    });
  }

  /** Restores the fixtures the store was opened with (the signing key is kept, so JWTs stay valid). */
  reset(): void {
    this.data = structuredClone(this.fixtures);
    this.save();
  }

  private mutate<T>(change: (data: FixtureSet) => T): T {
    // Work on a copy so that a failed change leaves neither memory nor file half-updated.
    const next = structuredClone(this.data);
    const result = change(next);
    this.data = next;
    this.save();
    return result;
  }

  private save(): void {
    if (!this.stateFile) return;
    const contents: StateFileContents = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: new Date().toISOString(),
      signingKey: this.key,
      data: this.data,
    };
    writeFileAtomically(this.stateFile, `${JSON.stringify(contents, null, 2)}\n`);
  }
}

function copy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
