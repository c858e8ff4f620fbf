/**
 * Clients for resolved connections, shared by everything in one process (the dynamic provider, or a
 * program's functions): one client per connection and settings, so connections are reused, and one
 * credential check per connection. Client settings come from stack config keys under `codesec:`.
 */
import { createHash } from "node:crypto";
import {
  CodeSecClient,
  CodeSecError,
  CodeSecInputError,
  RateLimiter,
  type DeadlineLabel,
  type SettingNames,
} from "../client";
import { quotedText } from "../api/messageText";
import type { CurrentUser } from "../api/schemas/users";
import { canonicalBaseUrl } from "../client/baseUrl";
import { isMessageLine } from "../client/optionChecks";
import { STACK_CONFIG, type ConfigLookup, type ResolvedConnection } from "./connection";
import { CodeSecConnectionError } from "./errors";

/** The client options a stack can set to a number, and their stack config keys. */
export const CLIENT_SETTING_KEYS = {
  timeoutMs: "codesec:timeoutMs",
  deadlineMs: "codesec:deadlineMs",
  retries: "codesec:retries",
  maxRetryDelayMs: "codesec:maxRetryDelayMs",
  requestsPerSecond: "codesec:requestsPerSecond",
  maxInFlight: "codesec:maxInFlight",
} as const;

/**
 * Set to `true` to accept plain `http://` base URLs to other machines than this one (the client option
 * `allowInsecureHttp`, for every connection of the provider).
 */
export const CONFIG_ALLOW_INSECURE_HTTP = "codesec:allowInsecureHttp";

/** The client settings that are numbers (CLIENT_SETTING_KEYS), and the opt-in to plain http. */
type NumberSetting = keyof typeof CLIENT_SETTING_KEYS;
export type ClientSettings = Partial<Record<NumberSetting, number>> & { allowInsecureHttp?: boolean };

/** Set to `true` to preview without contacting the platform (air-gapped previews). */
export const CONFIG_SKIP_CREDENTIALS_VALIDATION = "codesec:skipCredentialsValidation";

const USER_AGENT = "pulumi-codesec";

const UNITS: Partial<Record<NumberSetting, string>> = {
  retries: "attempts",
  requestsPerSecond: "requests per second",
  maxInFlight: "requests",
};

/** The client settings in stack config; the client itself checks their ranges (see clientFor). */
export function clientSettingsFrom(config: ConfigLookup): ClientSettings {
  const origin = config.origin ?? STACK_CONFIG;
  const settings: ClientSettings = {};
  for (const [option, key] of Object.entries(CLIENT_SETTING_KEYS) as [NumberSetting, string][]) {
    const text = config(key);
    if (text === undefined || text.trim() === "") continue;
    // Only the form is checked here (config values are text); the client checks the range.
    const value = Number(text);
    if (!Number.isFinite(value)) {
      throw new CodeSecConnectionError(
        origin.setting(key),
        `${origin.subject(key)} must be a number of ${UNITS[option] ?? "milliseconds"}, ` +
          `got ${quotedText(text.slice(0, 40))}; ${origin.howToSet(key, "<number>")}`,
      );
    }
    settings[option] = value;
  }
  if (booleanSetting(config, CONFIG_ALLOW_INSECURE_HTTP)) settings.allowInsecureHttp = true;
  return settings;
}

/** Whether stack config turns the credential check at preview off. */
export function skipsCredentialsValidation(config: ConfigLookup): boolean {
  return booleanSetting(config, CONFIG_SKIP_CREDENTIALS_VALIDATION);
}

/** A `true`/`false` setting (any case, blank or unset is false), named as its origin names it when wrong. */
function booleanSetting(config: ConfigLookup, key: string): boolean {
  const origin = config.origin ?? STACK_CONFIG;
  const text = config(key)?.trim().toLowerCase();
  if (text === undefined || text === "" || text === "false") return false;
  if (text === "true") return true;
  throw new CodeSecConnectionError(
    origin.setting(key),
    `${origin.subject(key)} must be true or false, got ${quotedText(text.slice(0, 20))}`,
  );
}

const clients = new Map<string, CodeSecClient>();
const limiters = new Map<string, RateLimiter>();

/**
 * The one rate limiter of a platform (base URL) in this process: every client of every connection to it
 * shares it, so all the resources and functions of a run stay under one rate together.
 */
function sharedLimiter(baseUrl: string, settings: ClientSettings): RateLimiter {
  const { requestsPerSecond, maxInFlight } = settings;
  const key = JSON.stringify([baseUrl, requestsPerSecond, maxInFlight]);
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter({
      ...(requestsPerSecond === undefined ? {} : { requestsPerSecond }),
      ...(maxInFlight === undefined ? {} : { maxInFlight }),
    });
    limiters.set(key, limiter);
  }
  return limiter;
}

/**
 * The client for a connection and settings, made once per process. The client's own option checks
 * (base URL, token, ranges) are the only rules, so preview and apply agree; a failure names the
 * setting it came from (`codesec:connections.org2.baseUrl`, `codesec:timeoutMs`, ...).
 */
export function clientFor(
  connection: ResolvedConnection,
  settings: ClientSettings = {},
  deadlineLabel?: DeadlineLabel,
): CodeSecClient {
  // The key uses the values the client will use (so `http://x` and `http://x/` are one connection); the
  // token is part of it, but only as a digest.
  let baseUrl: string;
  try {
    baseUrl = canonicalBaseUrl(connection.baseUrl);
  } catch (error) {
    throw settingError(error, connection);
  }
  const digest = createHash("sha256").update(connection.token.trim()).digest("hex");
  const settingNames = settingNamesOf(connection);
  const key = JSON.stringify([baseUrl, digest, settings, deadlineLabel, settingNames]);
  let client = clients.get(key);
  if (!client) {
    const { requestsPerSecond, maxInFlight, ...options } = settings;
    try {
      client = new CodeSecClient({
        baseUrl: connection.baseUrl,
        token: connection.token,
        userAgent: USER_AGENT,
        ...options,
        ...(deadlineLabel === undefined ? {} : { deadlineLabel }),
        ...(settingNames === undefined ? {} : { settingNames }),
        rateLimiter: sharedLimiter(baseUrl, { requestsPerSecond, maxInFlight }),
      });
    } catch (error) {
      throw settingError(error, connection);
    }
    clients.set(key, client);
  }
  return client;
}

/**
 * The client's refusal of an option as the refusal of the setting that holds it, named as its origin names
 * it (`codesec:timeoutMs`, or a Provider's `timeoutMs` input, with the Provider's name). The base URL and
 * token are the connection's, from wherever it was resolved (its origin, the environment, an argument).
 */
function settingError(error: unknown, connection: ResolvedConnection): unknown {
  if (!(error instanceof CodeSecInputError)) return error;
  const field = error.field;
  const { origin } = connection;
  const clientKey = (CLIENT_SETTING_KEYS as Record<string, string | undefined>)[field];
  let setting: string;
  let named: string;
  if (field === "baseUrl" || field === "token") {
    setting = connection.fields[field];
    named = connection.fromOrigin ? origin.prefix(setting) : setting;
  } else if (clientKey !== undefined) {
    setting = origin.setting(clientKey);
    named = origin.prefix(clientKey);
  } else {
    return error;
  }
  return new CodeSecConnectionError(setting, `${named}: ${error.message}`);
}

/** A read of the credentials' own user, and its answer once it has one. */
interface CurrentUserRead {
  readonly read: Promise<CurrentUser>;
  user?: CurrentUser;
}

const currentUsers = new WeakMap<CodeSecClient, CurrentUserRead>();

/**
 * The credentials' own user (`getCurrentUser`), read once per client per process and shared by every caller,
 * concurrent ones included: the credential check and the refresh of every UserRole of a connection make
 * one call between them. A failed read is shared by the callers waiting for it, not by later ones. A write
 * of the caller's own role through the client forgets it ({@link forgetCurrentUserAfterRoleWrite}), so a
 * read after that write sees it. A provider process serves one engine operation, so nothing read here
 * outlives the run.
 */
export function currentUserOf(client: CodeSecClient): Promise<CurrentUser> {
  let cached = currentUsers.get(client);
  if (!cached) {
    const entry: CurrentUserRead = { read: client.getCurrentUser() };
    // Shared while pending; a failure is not kept: the next reader asks again (its own retries spent).
    entry.read.then(
      (user) => {
        entry.user = user;
      },
      () => {
        if (currentUsers.get(client) === entry) currentUsers.delete(client);
      },
    );
    currentUsers.set(client, entry);
    cached = entry;
  }
  return cached.read;
}

/**
 * After a write (`updateUserRole`) of user `userId`'s role through the client: when that user may be the
 * credentials' own, the next read asks the platform again, as the write may have changed the caller's role.
 * Only an answer already in hand that names another user is kept; while the caller is not known yet (no
 * answer, or a read still in flight that may predate the write), it is forgotten.
 */
export function forgetCurrentUserAfterRoleWrite(client: CodeSecClient, userId: string): void {
  const cached = currentUsers.get(client);
  if (cached?.user !== undefined && cached.user.id !== userId) return;
  currentUsers.delete(client);
}

const checks = new WeakMap<CodeSecClient, Promise<void>>();

/**
 * Proves a connection works with one cheap read (`getCurrentUser`, the current user), once per client per
 * process however many resources use it: a wrong token, a wrong base URL or an unreachable platform
 * then fails `pulumi preview` instead of `pulumi up`. Never a mutating call.
 */
export function verifyCredentials(client: CodeSecClient, connection: ResolvedConnection): Promise<void> {
  let check = checks.get(client);
  if (!check) {
    check = currentUserOf(client).then(
      () => undefined,
      (error: unknown) => {
        const { origin } = connection;
        const reason = error instanceof CodeSecError ? error.message : String(error);
        throw new CodeSecConnectionError(
          connection.fields.token,
          `pulumi-codesec could not use the credentials from ${connection.source} at ${client.baseUrl}: ` +
            `${reason} To preview without contacting the platform (an air-gapped preview), ` +
            `${origin.howToSet(CONFIG_SKIP_CREDENTIALS_VALIDATION, true)}.`,
        );
      },
    );
    checks.set(client, check);
  }
  return check;
}

/**
 * How the client's messages name where a connection's settings are set: an explicit Provider's inputs,
 * named after it (`the timeoutMs input of provider "org2"`), and the one place its base URL and token came
 * from. Undefined under stack config, whose keys are the client's own default words.
 */
function settingNamesOf(connection: ResolvedConnection): SettingNames | undefined {
  const { fields, origin } = connection;
  if (origin.providerName === undefined) return undefined;
  // A phrase the client would refuse (a Provider's name is not bounded) names the input alone.
  const phrase = (key: string) => {
    const where = origin.where(key);
    return isMessageLine(where) ? where : `the ${origin.setting(key)} input of its codesec.Provider`;
  };
  const field = (name: string) => (connection.fromOrigin ? phrase(name) : name);
  return {
    baseUrl: field(fields.baseUrl),
    token: field(fields.token),
    timeoutMs: phrase(CLIENT_SETTING_KEYS.timeoutMs),
    // Where deadlineMs is set; when a step's customTimeouts chose the deadline instead, clientFor's
    // deadlineLabel names them and the client leaves this unused.
    deadlineMs: phrase(CLIENT_SETTING_KEYS.deadlineMs),
    maxRetryDelayMs: phrase(CLIENT_SETTING_KEYS.maxRetryDelayMs),
    allowInsecureHttp: phrase(CONFIG_ALLOW_INSECURE_HTTP),
  };
}
