/**
 * The typed client for the platform's ten operations. Method bodies live in `operations/`; this class
 * holds the validated options and the transport, and documents each operation.
 */
import { normalizeBaseUrl } from "./baseUrl";
import { CodeSecInputError } from "./errors";
import * as notificationRules from "./operations/notificationRules";
import * as provisioning from "./operations/provisioning";
import * as scans from "./operations/scans";
import * as scm from "./operations/scm";
import * as users from "./operations/users";
import { describeFound } from "../api/schemaIssues";
import { checkNumber, checkOptionNames, isMessageLine, MAX_MESSAGE_LINE_LENGTH } from "./optionChecks";
import { RateLimiter, checkMaxInFlight, checkRequestsPerSecond } from "./rateLimiter";
import type { NotificationRule } from "../api/schemas/notificationRules";
import type { ProvisionResult } from "../api/schemas/provisioning";
import type { Branch, Scan } from "../api/schemas/scans";
import type { ScmApp, SubscribeScmWebhookResponse } from "../api/schemas/scm";
import type { CurrentUser, JoinableOrganizationsResponse } from "../api/schemas/users";
import type { DeadlineLabel } from "./errors";
import { checkSettingNames, type SettingNames } from "./settingNames";
import { Transport } from "./transport";

/** Per-attempt timeout: connecting, sending, the headers and the whole body. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Bound of a whole call: its attempts, backoff and Retry-After waits. */
export const DEFAULT_DEADLINE_MS = 30_000;
export const DEFAULT_RETRIES = 3;
/** Cap of each backoff wait, and the longest Retry-After the client waits for. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 10_000;
export const DEFAULT_USER_AGENT = "pulumi-codesec-sdk";
/** Largest value setTimeout accepts. */
const MAX_TIMER_MS = 2_147_483_647;
export const MAX_RETRIES = 10;

export interface CodeSecClientOptions {
  /**
   * Base address of the platform API, e.g. `https://codesec.example.com` or the emulator's `baseUrl`.
   * Without a trailing `/api`: the operation paths already start with `/api/`.
   */
  baseUrl: string;
  /**
   * API token (with the Web API permission, no scope restriction) or user JWT. Kept private; never echoed.
   */
  token: string;
  /**
   * `true` accepts a plain `http://` base URL to another machine, where the token crosses the network
   * unencrypted: only for a platform reached over a network you trust (an emulator in another container).
   * Default `false`: `http://` is accepted only to this machine (`localhost`, 127.0.0.0/8, `[::1]`: the
   * emulator), any other host needs `https://`.
   */
  allowInsecureHttp?: boolean;
  /**
   * Per-attempt timeout in ms, covering connecting, sending, the headers and the whole body. Default 10000.
   */
  timeoutMs?: number;
  /** Bound in ms of a whole call (attempts, backoff and Retry-After waits). Default 30000. */
  deadlineMs?: number;
  /**
   * How messages name the deadline, when something other than `deadlineMs` chose it: `limit`, the limit
   * reached (`the resource's customTimeouts (31 s for this step)`), and `raise`, what to raise. Words
   * only: it bounds nothing (`deadlineMs` does). Each a line of printable text of at most 200 characters;
   * any other key is refused. Default: messages name `deadlineMs` (client option, stack config
   * `codesec:deadlineMs`, or `settingNames.deadlineMs`). Not a part of `settingNames`, which says where a
   * setting is set: a label says that another limit, in its own terms, replaced `deadlineMs`, so with
   * one the deadline's messages name the label and never `deadlineMs` or `settingNames.deadlineMs`.
   */
  deadlineLabel?: DeadlineLabel;
  /**
   * Where your users set this client's settings, in their words, for the messages that say what to change:
   * `{ baseUrl, token, timeoutMs, deadlineMs, maxRetryDelayMs }`, each a phrase such as
   * `the timeoutMs input of provider "org2"`, which replaces the client option and the stack config key
   * the message names otherwise. Words only: it sets nothing. Each a line of printable text of at most 200
   * characters; a part left out keeps its default words; any other key is refused. Default: messages
   * name the client option and the provider package's stack config key (`codesec:timeoutMs`). With a
   * `deadlineLabel`, the deadline's messages name the label instead of `deadlineMs`'s words.
   */
  settingNames?: SettingNames;
  /** Extra attempts after the first (0-10), where the operation's retry class allows one. Default 3. */
  retries?: number;
  /** Cap in ms of each backoff wait; a longer `Retry-After` fails the call at once. Default 10000. */
  maxRetryDelayMs?: number;
  /** User-Agent header. Default `pulumi-codesec-sdk`. */
  userAgent?: string;
  /**
   * Requests this client starts per second at most (1-100000, may be fractional), retries included.
   * Default 100. Not with `rateLimiter`.
   */
  requestsPerSecond?: number;
  /**
   * Requests of this client in flight at once at most (an integer 1-1000). Default 16. Not with
   * `rateLimiter`.
   */
  maxInFlight?: number;
  /**
   * A limiter shared with other clients (all clients of a provider process share one): they then pace
   * themselves together, and a `Retry-After` one of them honours holds them all. Without it, the client
   * makes its own from `requestsPerSecond` and `maxInFlight`.
   */
  rateLimiter?: RateLimiter;
}

const OPTION_NAMES: readonly (keyof CodeSecClientOptions)[] = [
  "baseUrl",
  "token",
  "timeoutMs",
  "deadlineMs",
  "retries",
  "maxRetryDelayMs",
  "userAgent",
  "requestsPerSecond",
  "maxInFlight",
  "rateLimiter",
  "deadlineLabel",
  "settingNames",
  "allowInsecureHttp",
];

/**
 * Client for the code-security platform's web API.
 *
 * Every method validates its arguments before sending anything (a bad id or enum, a value nested more
 * than 64 levels deep, or a body above the platform's 64 KiB limit, throws {@link CodeSecInputError}
 * naming the argument), checks the response against the schema (a mismatch or a value nested too deeply
 * throws {@link CodeSecResponseError} naming the field; unknown extra fields are kept), and maps every
 * failure to a {@link CodeSecError} subclass whose message names the operation, the status, what the platform
 * said and what to do.
 *
 * Time: each attempt has `timeoutMs` (default 10 s) for connecting, sending, the headers and the whole
 * body; a body cut off mid-way fails at once. Each call has `deadlineMs` (default 30 s) for all of
 * its attempts and waits; each attempt's timeout is at most the time left.
 *
 * Rate: every attempt (first and retries) first takes a slot of the client's {@link RateLimiter}
 * (`requestsPerSecond`, default 100, with bursts of `BURST_WINDOW_MS` (100 ms) worth; `maxInFlight`,
 * default 16; or a limiter shared with other clients, `rateLimiter`), and gives it back once its
 * outcome is known. Time spent waiting
 * in the limiter's queue is not charged to `deadlineMs`: the deadline starts when the first attempt
 * gets its slot, so a call queued behind thousands of others does not time out before it is sent.
 * A 429 whose `Retry-After` the client honours pauses the whole limiter until then, so the clients
 * sharing it wait too instead of collecting 429s of their own.
 *
 * Retries follow each operation's retry class (`OPERATIONS[op].retryClass`; docs/api-behaviour.md,
 * "Retry classes"), at most `retries` extra attempts with backoff from 200 ms (equal jitter, doubled
 * per attempt, capped by `maxRetryDelayMs`):
 * - reads and idempotent writes (`updateUserRole`, `provisionWorkflows`, `subscribeScmWebhook`): on 429, 502,
 *   503, 504, a connection failure, a timeout or a cut-off answer;
 * - `completeScmAppRequest` (a one-time code): only when the request provably never
 *   reached the platform (the connection was never established) or on 429. Any other failure after
 *   it may have arrived throws {@link CodeSecOutcomeUnknownError} without a repeat.
 * Never: other 4xx, 500, a malformed, mis-shaped or oversized 2xx answer. A `Retry-After` (seconds or
 * HTTP date) is honoured when it is at most `maxRetryDelayMs` and ends before the deadline; a longer
 * one fails at once with {@link CodeSecRateLimitError} (for a 429) giving the time to wait.
 * No redirect is followed: the credential goes to the configured host only, and over https unless that
 * host is this machine (or `allowInsecureHttp` says otherwise).
 *
 * The token is held in a private field: it never appears in `util.inspect(client)`,
 * `JSON.stringify(client)`, or any error, and is redacted from anything the server echoes.
 *
 * @example
 * const client = new CodeSecClient({ baseUrl: "https://codesec.example.com", token: process.env.CODESEC_TOKEN! });
 * const scan = await client.getScan({ deploymentId: "42", scanId: "1001" });
 */
export class CodeSecClient {
  /** The base URL in use, without a trailing slash. */
  readonly baseUrl: string;
  readonly #transport: Transport;

  constructor(options: CodeSecClientOptions) {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new CodeSecInputError(
        "options",
        "CodeSecClient expects an options object { baseUrl, token, ... }",
      );
    }
    checkOptionNames(options, OPTION_NAMES, "client");
    const settingNames = checkSettingNames(options.settingNames);
    this.baseUrl = normalizeBaseUrl(options.baseUrl, {
      allowInsecureHttp: checkAllowInsecureHttp(options.allowInsecureHttp),
      settingNames,
    });
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      token: checkToken(options.token),
      timeoutMs: checkNumber("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS, 1, MAX_TIMER_MS),
      deadlineMs: checkNumber("deadlineMs", options.deadlineMs, DEFAULT_DEADLINE_MS, 1, MAX_TIMER_MS),
      deadlineLabel: checkDeadlineLabel(options.deadlineLabel),
      settingNames,
      retries: checkNumber("retries", options.retries, DEFAULT_RETRIES, 0, MAX_RETRIES, true),
      maxRetryDelayMs: checkNumber(
        "maxRetryDelayMs",
        options.maxRetryDelayMs,
        DEFAULT_MAX_RETRY_DELAY_MS,
        0,
        MAX_TIMER_MS,
      ),
      userAgent: checkUserAgent(options.userAgent),
      rateLimiter: limiterOf(options),
    });
  }

  /**
   * Changes a user's organization role in a deployment.
   *
   * Request: `PATCH /api/agent/deployments/{deploymentId}/users/{userId}/roles`
   * (DeploymentService_PatchDeploymentUser). Maturity: experimental. Retry class `idempotentWrite`.
   * The body's `deploymentId` and `userId` are filled from the path arguments.
   *
   * @example
   * await client.updateUserRole({ deploymentId: "42", userId: "u-7", newRole: "ORG_ROLE_ADMIN" });
   */
  updateUserRole(args: users.UpdateUserRoleArgs): Promise<void> {
    return users.updateUserRole(this.#transport, args);
  }

  /**
   * Adds the platform's CI workflow to the repositories of the projects matching the filters.
   * Partial failures come back in `errors` (the call itself succeeds).
   *
   * Request: `POST /api/agent/deployments/{deploymentId}/repos/_provision`. Maturity: experimental.
   * Retry class `idempotentWrite`.
   *
   * @example
   * const { repoFileUrls, errors } = await client.provisionWorkflows({
   *   deploymentId: "42",
   *   filters: { ids: ["101", "102"] },
   *   ghaOptions: { prEnabled: true },
   * });
   */
  provisionWorkflows(args: provisioning.ProvisionWorkflowsArgs): Promise<ProvisionResult> {
    return provisioning.provisionWorkflows(this.#transport, args);
  }

  /**
   * Completes an SCM app request with its one-time `code` and returns the app (`response.app`).
   * The code is never echoed in errors.
   *
   * Request: `PUT /api/scm/app_request_complete`. Maturity: experimental. Retry class `once`: a
   * failure after the request may have arrived throws {@link CodeSecOutcomeUnknownError} (read the
   * app with {@link CodeSecClient.getScmApp} to learn whether it was completed).
   *
   * @example
   * const app = await client.completeScmAppRequest({ requestId: "req-1", code: oneTimeCode });
   */
  completeScmAppRequest(args: scm.CompleteScmAppRequestArgs): Promise<ScmApp> {
    return scm.completeScmAppRequest(this.#transport, args);
  }

  /**
   * Reads an SCM app by its request id (`response.app`).
   *
   * Request: `GET /api/scm/deployments/{deploymentId}/scm_apps/{requestId}`. Maturity: experimental.
   *
   * @example
   * const app = await client.getScmApp({ deploymentId: "42", requestId: "req-1" });
   */
  getScmApp(args: scm.GetScmAppArgs): Promise<ScmApp> {
    return scm.getScmApp(this.#transport, args);
  }

  /**
   * Subscribes a deployment's SCM configuration to SCM webhook events.
   *
   * Request: `PUT /api/scm/deployments/{deploymentId}/subscriptions/{configId}` (no body).
   * Maturity: experimental. Retry class `idempotentWrite`.
   *
   * @example
   * const { subscription } = await client.subscribeScmWebhook({ deploymentId: "42", configId: "cfg-1" });
   */
  subscribeScmWebhook(args: scm.SubscribeScmWebhookArgs): Promise<SubscribeScmWebhookResponse> {
    return scm.subscribeScmWebhook(this.#transport, args);
  }

  /**
   * Reads one scan (`response.scan`). Both ids are numeric strings.
   *
   * Request: `GET /api/v2/deployments/{deploymentId}/scans/{scanId}`. Maturity: beta.
   *
   * @example
   * const scan = await client.getScan({ deploymentId: "42", scanId: "1001" });
   * console.log(scan.status, scan.findingsCounts.total);
   */
  getScan(args: scans.GetScanArgs): Promise<Scan> {
    return scans.getScan(this.#transport, args);
  }

  /**
   * Reads one branch of a project (`response.branch`). All ids are numeric strings.
   *
   * Request: `GET /api/v2/deployments/{deploymentId}/projects/{projectId}/branches/{branchId}`.
   * Maturity: experimental.
   *
   * @example
   * const branch = await client.getBranch({ deploymentId: "42", projectId: "7", branchId: "3" });
   * // branch.name === "refs/heads/main"
   */
  getBranch(args: scans.GetBranchArgs): Promise<Branch> {
    return scans.getBranch(this.#transport, args);
  }

  /**
   * Reads the user the token belongs to (`response.user`): role, e-mail, authentication details.
   *
   * Request: `GET /api/auth/users/current`. Maturity: experimental.
   *
   * @example
   * const me = await client.getCurrentUser();
   */
  getCurrentUser(): Promise<CurrentUser> {
    return users.getCurrentUser(this.#transport);
  }

  /**
   * Lists the organizations (deployments) the caller can join. Accepts only a user JWT (an API token
   * gets 403), and `userId`, when given, must be the caller's own id (sent as the `userId` query parameter).
   *
   * Request: `GET /api/auth/users/current/deployments/joinable`. Maturity: experimental.
   *
   * @example
   * const me = await client.getCurrentUser();
   * const { orgs } = await client.listJoinableOrganizations({ userId: me.id });
   */
  listJoinableOrganizations(
    args?: users.ListJoinableOrganizationsArgs,
  ): Promise<JoinableOrganizationsResponse> {
    return users.listJoinableOrganizations(this.#transport, args);
  }

  /**
   * Lists one page of notification rules. The body carries `deploymentId` as an integer and
   * `limit` as `options.optionalLimit` (an integer 1..100, checked before sending); pass the
   * returned `nextCursor` as `cursor` for the next page. Retry class `read` (a POST that changes nothing).
   *
   * Request: `POST /api/agent/deployments/{deploymentId}/actions/list`. Maturity: experimental.
   *
   * @example
   * const first = await client.listNotificationRules({ deploymentId: "42", limit: 50 });
   * const second = first.nextCursor
   *   ? await client.listNotificationRules({ deploymentId: "42", limit: 50, cursor: first.nextCursor })
   *   : undefined;
   */
  listNotificationRules(
    args: notificationRules.ListNotificationRulesArgs,
  ): Promise<notificationRules.NotificationRulesPage> {
    return notificationRules.listNotificationRules(this.#transport, args);
  }

  /**
   * Lists one page of notification rules and resolves with the answer's status alone (a 2xx; any other
   * answer throws as {@link CodeSecClient.listNotificationRules} does): the body is not read, so a rule
   * the platform answers with a field missing does not make it fail. For a caller that needs to know only
   * whether the platform lists the deployment's rules for these credentials.
   *
   * Request: `POST /api/agent/deployments/{deploymentId}/actions/list`. Maturity: experimental.
   *
   * @example
   * const listed = (await client.listNotificationRulesStatus({ deploymentId: "42", limit: 1 })) === 200;
   */
  listNotificationRulesStatus(args: notificationRules.ListNotificationRulesArgs): Promise<number> {
    return notificationRules.listNotificationRulesStatus(this.#transport, args);
  }

  /**
   * Lists every notification rule by following cursors (`listNotificationRules`, repeated). Fails with
   * {@link CodeSecResponseError} if the platform repeats a cursor (which would never end) or more
   * than `maxPages` (default 1000) pages arrive; `pageSize` defaults to 100.
   *
   * Request: `POST /api/agent/deployments/{deploymentId}/actions/list`. Maturity: experimental.
   *
   * @example
   * const rules = await client.listAllNotificationRules({ deploymentId: "42", filters: { is_enabled: true } });
   * const broken = rules.filter((rule) => rule.config_error !== "");
   */
  listAllNotificationRules(
    args: notificationRules.ListAllNotificationRulesArgs,
  ): Promise<NotificationRule[]> {
    return notificationRules.listAllNotificationRules(this.#transport, args);
  }
}

function checkToken(value: unknown): string {
  // Never echo the value, not even its length: only its type.
  if (typeof value !== "string") {
    throw new CodeSecInputError(
      "token",
      `token must be a non-empty string, got ${value === null ? "null" : typeof value}`,
    );
  }
  // The one rule for every way a token arrives (this client, both providers, stack config or a Provider's
  // input): whitespace around it, such as the trailing newline a token file ends with, is dropped; any
  // inside it is refused here, before a request, rather than sent for the platform to answer 401.
  const token = value.trim();
  if (token === "") throw new CodeSecInputError("token", "token must be a non-empty string");
  // API tokens and JWTs are printable ASCII; anything else cannot travel in an HTTP header.
  if (/[^\x21-\x7e]/.test(token)) {
    throw new CodeSecInputError(
      "token",
      "token must contain only printable ASCII characters, with no whitespace or control character inside " +
        "it (whitespace around it, such as a file's trailing newline, is dropped): set it again exactly as " +
        "the platform issued it",
    );
  }
  return token;
}

function checkAllowInsecureHttp(value: unknown): boolean {
  if (value === undefined || typeof value === "boolean") return value === true;
  throw new CodeSecInputError(
    "allowInsecureHttp",
    `allowInsecureHttp must be true or false, got ${describeFound(value)}`,
  );
}

/**
 * A deadline label is words in messages only (it bounds nothing): each part one short line of printable
 * text (optionChecks.ts isMessageLine).
 */
function checkDeadlineLabel(value: unknown): DeadlineLabel | undefined {
  if (value === undefined) return undefined;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    checkOptionNames(value, ["limit", "raise"], "deadlineLabel", "deadlineLabel");
    const { limit, raise } = value as Record<string, unknown>;
    if (isMessageLine(limit) && isMessageLine(raise)) return { limit, raise };
  }
  throw new CodeSecInputError(
    "deadlineLabel",
    `deadlineLabel must be an object { limit, raise } of two lines of at most ${MAX_MESSAGE_LINE_LENGTH} ` +
      "characters, printable text with no control character",
  );
}

function checkUserAgent(value: unknown): string {
  if (value === undefined) return DEFAULT_USER_AGENT;
  // Printable ASCII and spaces only: anything else cannot travel in an HTTP header.
  if (typeof value !== "string" || value.trim() === "" || /[^\x20-\x7e]/.test(value)) {
    throw new CodeSecInputError(
      "userAgent",
      `userAgent must be a non-empty line of printable ASCII characters, got ${describeFound(value)}`,
    );
  }
  return value;
}

/** The client's own limiter from its numbers, or the shared one (then the numbers belong to that limiter). */
function limiterOf(options: CodeSecClientOptions): RateLimiter {
  const shared: unknown = options.rateLimiter;
  if (shared === undefined) {
    return new RateLimiter({
      requestsPerSecond: checkRequestsPerSecond(options.requestsPerSecond),
      maxInFlight: checkMaxInFlight(options.maxInFlight),
    });
  }
  if (!(shared instanceof RateLimiter)) {
    throw new CodeSecInputError(
      "rateLimiter",
      `rateLimiter must be a RateLimiter (new RateLimiter({ requestsPerSecond, maxInFlight }) from pulumi-codesec/sdk), got ${describeFound(shared)}`,
    );
  }
  for (const field of ["requestsPerSecond", "maxInFlight"] as const) {
    if (options[field] !== undefined) {
      throw new CodeSecInputError(
        field,
        `${field} cannot be given together with rateLimiter: a shared limiter has its own ${field} (${shared[field]}); set it where the limiter is made`,
      );
    }
  }
  return shared;
}
