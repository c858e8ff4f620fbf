/**
 * Where the provider finds its credentials. A connection comes whole from one source, never field by
 * field across sources, so a token can only ever travel to the base URL it was configured with:
 *
 * 1. an explicit `connection` argument: a name (`connection: "org2"`, resolved from stack config
 *    `codesec:connections.org2.{baseUrl,token}`), or, deprecated, an object `{ baseUrl, token }`;
 * 2. else stack config `codesec:baseUrl` + `codesec:token`;
 * 3. else the environment variables `CODESEC_BASE_URL` + `CODESEC_TOKEN`.
 *
 * A source that sets only one of its two fields is an error, not a cue to look further.
 */
import type { Static } from "@sinclair/typebox";
import { Type } from "../api/typeBuilder";
import { escapedText, quotedText } from "../api/messageText";
import { described, secretValue } from "../api/schemaIssues";
import { CodeSecConnectionError, MissingCredentialsError } from "./errors";
import { literalPattern, patternAround } from "./literalPattern";

export const CONFIG_BASE_URL = "codesec:baseUrl";
export const CONFIG_TOKEN = "codesec:token";
export const CONFIG_CONNECTIONS = "codesec:connections";
export const ENV_BASE_URL = "CODESEC_BASE_URL";
export const ENV_TOKEN = "CODESEC_TOKEN";

/** Where the default provider's named connections are: the words of `STACK_CONFIG.connectionsSetting`. */
const STACK_CONNECTIONS = `stack config ${CONFIG_CONNECTIONS}`;

/**
 * What a connection name must be, naming where the connections are (`connectionsSetting`): the schema's
 * description says stack config's; a message says its own origin's.
 */
const connectionNameRule = (connectionsSetting: string) =>
  `the name of a connection under ${connectionsSetting} (letters, digits, _ . -)`;

/** What a `connection` input must be, naming where the named connections are (as {@link connectionNameRule}). */
const connectionInputRule = (connectionsSetting: string) =>
  `a connection name from ${connectionsSetting}, or (deprecated) an object { baseUrl, token }`;

/** The name of a connection defined under stack config `codesec:connections`. */
export const ConnectionName = Type.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
  description: connectionNameRule(STACK_CONNECTIONS),
});

/** Explicit credentials: `{ baseUrl, token }`. Deprecated as a resource argument: name a connection instead. */
export const ConnectionObject = Type.Object(
  {
    baseUrl: described(
      Type.String(),
      "Base address of the platform API, e.g. `https://codesec.example.com` or the emulator's URL.",
    ),
    // Marked secret: messages never quote it, and the schema stores it as a secret.
    token: described(
      secretValue(Type.String()),
      "API token (with the Web API permission) or user JWT. Always stored as a secret.",
    ),
  },
  { additionalProperties: false },
);
/** Credentials for one organization: `{ baseUrl, token }`. */
export type Connection = Static<typeof ConnectionObject>;

/** The `connection` input of resources and the `connection` option of functions. */
export const ConnectionInput = Type.Union([ConnectionName, ConnectionObject], {
  description: connectionInputRule(STACK_CONNECTIONS),
});
/** A connection name (preferred) or, deprecated, explicit credentials. */
export type ConnectionInput = Static<typeof ConnectionInput>;

/**
 * Where a provider's configuration comes from, and how every message names it and says how to change it:
 * the default provider's stack config (`codesec:token`, set with `pulumi config set`), or an explicit
 * `codesec.Provider` resource's inputs (`token`, set in the program). The one formatter of settings for
 * messages: nothing else words a setting's name or how to set it.
 */
export interface ConfigOrigin {
  /** `stack config`, or `provider "org2" (codesec.Provider resource inputs)`. */
  readonly label: string;
  /** A namespaced key (`codesec:token`) as the user sets it here: itself, or the input `token`. */
  readonly setting: (key: string) => string;
  /**
   * A key named with whose it is, as a message's subject: `stack config codesec:timeoutMs`, or
   * `provider "org2" (codesec.Provider resource inputs) timeoutMs`.
   */
  readonly subject: (key: string) => string;
  /**
   * Where a key is set, as a phrase for advice (`raise timeoutMs (...)`): `stack config codesec:timeoutMs`,
   * or `the timeoutMs input of provider "org2"`.
   */
  readonly where: (key: string) => string;
  /**
   * A key as a failing value's prefix (`<prefix>: <what is wrong>`): the namespaced key alone names a stack
   * config setting (`codesec:timeoutMs`); a Provider's input is named with its Provider.
   */
  readonly prefix: (key: string) => string;
  /**
   * Where a connection's two settings are, for `could not use the credentials from ...`:
   * `stack config (codesec:baseUrl and codesec:token)`, or `the baseUrl and token inputs of provider "org2"`.
   */
  readonly pairSource: (baseUrlKey: string, tokenKey: string) => string;
  /**
   * How to set a key to a value: ``run `pulumi config set codesec:movedFrom https://a` ``, or
   * ``set the movedFrom input of provider "org2" (`movedFrom: "https://a"`)``. A value `<number>` in angle
   * brackets stands for one. `secret`: stack config stores it encrypted (`--secret`).
   */
  readonly howToSet: (
    key: string,
    value: string | number | boolean,
    options?: { secret?: boolean },
  ) => string;
  /** What to do to set the token here. */
  readonly howToSetToken: string;
  /** Where the named connections are: `stack config codesec:connections`, or the Provider's input. */
  readonly connectionsSetting: string;
  /** The named connection `name` (`codesec:connections.org2`, or the Provider's `connections.org2`). */
  readonly connectionSource: (name: string) => string;
  /**
   * What defines the named connection `name` (`<name>` stands for any), to follow `with`: the two
   * `pulumi config set --path` commands, or the Provider's `connections` input.
   */
  readonly howToDefineConnection: (name: string) => string;
  /**
   * Where the connection used when a resource names none is set, and how, as one of the ways to give
   * credentials: stack config with its two commands, or the Provider's `baseUrl` and `token` inputs.
   */
  readonly howToSetCredentials: string;
  /**
   * The explicit Provider resource's name (`org2`) whose inputs the settings are; undefined for stack
   * config. Its presence is what says the settings are a Provider's inputs (their names alone do not say
   * whose).
   */
  readonly providerName?: string;
}

/** The command that sets a stack config key: `pulumi config set [--secret] [--path] <key> <value>`. */
function configSetCommand(
  key: string,
  value: string,
  options?: { secret?: boolean; path?: boolean },
): string {
  const flags = `${options?.secret === true ? " --secret" : ""}${options?.path === true ? " --path" : ""}`;
  return `pulumi config set${flags} ${key} ${value}`;
}

/** A command as a message quotes it among words: in backticks. */
const quoted = (command: string) => `\`${command}\``;

/** The command that sets the default provider's token, alone or beside its base URL's. */
const SET_STACK_TOKEN = configSetCommand(CONFIG_TOKEN, "<token>", { secret: true });

/** The default provider's configuration: stack config keys under `codesec:`. */
export const STACK_CONFIG: ConfigOrigin = {
  label: "stack config",
  setting: (key) => key,
  subject: (key) => `stack config ${key}`,
  where: (key) => `stack config ${key}`,
  prefix: (key) => key,
  pairSource: (baseUrlKey, tokenKey) => `stack config (${baseUrlKey} and ${tokenKey})`,
  howToSet: (key, value, options) => `run ${quoted(configSetCommand(key, String(value), options))}`,
  howToSetToken: SET_STACK_TOKEN,
  connectionsSetting: STACK_CONNECTIONS,
  connectionSource: (name) => `connection ${quotedText(name)} (${CONFIG_CONNECTIONS}.${escapedText(name)})`,
  howToDefineConnection: (name) =>
    `${quoted(configSetCommand(`${CONFIG_CONNECTIONS}.${name}.baseUrl`, "<url>", { path: true }))} and ` +
    quoted(configSetCommand(`${CONFIG_CONNECTIONS}.${name}.token`, "<token>", { secret: true, path: true })),
  howToSetCredentials: `stack config (${quoted(configSetCommand(CONFIG_BASE_URL, "<url>"))} and ${quoted(SET_STACK_TOKEN)})`,
};

/** How messages name an explicit Provider, from its name as they quote it: `provider "org2"`. */
const providerPhrase = (quoted: string) => `provider ${quoted}`;

/** The label of an explicit Provider's inputs, from how messages name it (`providerPhrase`). */
const providerInputsLabel = (provider: string) => `${provider} (codesec.Provider resource inputs)`;

/** A quoted Provider name (as `quotedText` writes a string), as a regular expression. */
const QUOTED_NAME_PATTERN = String.raw`"(?:[^"\\]|\\.)*"`;

/**
 * A regular expression (its source, no flags) that matches exactly the labels a {@link ConfigOrigin} can
 * have: `stack config`, or `provider "<any quoted name>" (codesec.Provider resource inputs)`. Built from the
 * words the labels are built from, so that it cannot drift from them: a reader of messages (codesec-drift)
 * finds the provider's own phrases by it, never a look-alike in text quoted from elsewhere.
 */
export const CONFIG_ORIGIN_LABEL_PATTERN =
  `(?:${literalPattern(STACK_CONFIG.label)}|` +
  `${patternAround(providerInputsLabel(providerPhrase("\u0000")), "\u0000", QUOTED_NAME_PATTERN)})`;

/** An explicit `codesec.Provider` resource's configuration: its inputs (`token`), named after it. */
export function providerInputsOrigin(name: string): ConfigOrigin {
  const provider = providerPhrase(quotedText(name));
  const label = providerInputsLabel(provider);
  const setting = (key: string) => key.replace(/^codesec:/, "");
  const connections = setting(CONFIG_CONNECTIONS);
  const pairSource = (baseUrlKey: string, tokenKey: string) =>
    `the ${setting(baseUrlKey)} and ${setting(tokenKey)} inputs of ${provider}`;
  return {
    label,
    setting,
    subject: (key) => `${label} ${setting(key)}`,
    where: (key) => `the ${setting(key)} input of ${provider}`,
    prefix: (key) => `${label} ${setting(key)}`,
    pairSource,
    howToSet: (key, value) =>
      `set the ${setting(key)} input of ${provider} (\`${setting(key)}: ${literal(value)}\`)`,
    howToSetToken: `set the token input of ${provider}`,
    connectionsSetting: `the ${connections} input of ${provider}`,
    connectionSource: (connection) =>
      `connection ${quotedText(connection)} in the ${connections} input of ${provider}`,
    howToDefineConnection: (connection) =>
      `the ${connections} input of ${provider}, an object of named connections ` +
      `(\`${connections}: { ${quotedText(connection)}: { baseUrl: "<url>", token: <secret token> } }\`)`,
    howToSetCredentials: pairSource(CONFIG_BASE_URL, CONFIG_TOKEN),
    providerName: name,
  };
}

/** A value as a program writes it (`"https://a"`, `true`); a placeholder (`<number>`) as it is. */
function literal(value: string | number | boolean): string {
  return typeof value === "string" && !/^<[^<>]*>$/.test(value) ? quotedText(value) : String(value);
}

/**
 * Reads one namespaced configuration key (`codesec:token`); undefined when unset. `origin` says where the
 * keys come from, for messages; without it, stack config.
 */
export type ConfigLookup = ((key: string) => string | undefined) & { readonly origin?: ConfigOrigin };

/** Credentials resolved from one source, with where each field came from (for messages). */
export interface ResolvedConnection extends Connection {
  /** Where the credentials came from, e.g. `stack config codesec:baseUrl and codesec:token`. */
  readonly source: string;
  /** The setting each field came from, e.g. `{ baseUrl: "codesec:connections.org2.baseUrl", ... }`. */
  readonly fields: { readonly baseUrl: string; readonly token: string };
  /**
   * The configuration the connection was resolved under: where the client settings, the credential check
   * switch and `movedFrom` that go with it are set, and how messages name them.
   */
  readonly origin: ConfigOrigin;
  /** Whether `fields` are settings of `origin` (not the environment's or a `connection` argument's). */
  readonly fromOrigin: boolean;
}

/** Resolves the connection to use, from exactly one source (see the module comment). */
export function resolveConnection(
  explicit: unknown,
  config: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConnection {
  const origin = config.origin ?? STACK_CONFIG;
  if (explicit !== undefined && explicit !== null) {
    if (typeof explicit === "string") return namedConnection(explicit, config);
    if (typeof explicit === "object" && !Array.isArray(explicit)) return explicitConnection(explicit, origin);
    throw new CodeSecConnectionError(
      "connection",
      `connection must be ${connectionInputRule(origin.connectionsSetting)}, ` +
        `got ${Array.isArray(explicit) ? "an array" : typeof explicit}`,
    );
  }
  const fromConfig = pair(
    { baseUrl: origin.setting(CONFIG_BASE_URL), token: origin.setting(CONFIG_TOKEN) },
    config(CONFIG_BASE_URL),
    config(CONFIG_TOKEN),
    origin.label,
    origin.howToSetToken,
  );
  if (fromConfig) {
    return {
      ...fromConfig,
      source: origin.pairSource(CONFIG_BASE_URL, CONFIG_TOKEN),
      origin,
      fromOrigin: true,
    };
  }
  const fromEnv = pair(
    { baseUrl: ENV_BASE_URL, token: ENV_TOKEN },
    env[ENV_BASE_URL],
    env[ENV_TOKEN],
    "the environment",
    `export ${ENV_TOKEN}=<token>`,
  );
  if (fromEnv)
    return {
      ...fromEnv,
      source: `the environment (${ENV_BASE_URL} and ${ENV_TOKEN})`,
      origin,
      fromOrigin: false,
    };
  throw new MissingCredentialsError(origin.providerName);
}

/** Both fields of one source, or undefined when the source sets neither; one without the other fails. */
function pair(
  fields: { baseUrl: string; token: string },
  baseUrl: string | undefined,
  token: string | undefined,
  where: string,
  howToSetToken: string,
): Pick<ResolvedConnection, "baseUrl" | "token" | "fields"> | undefined {
  const hasUrl = !isBlank(baseUrl);
  const hasToken = !isBlank(token);
  if (!hasUrl && !hasToken) return undefined;
  if (!hasToken) {
    throw new CodeSecConnectionError(
      fields.token,
      `${where} sets ${fields.baseUrl} but not ${fields.token}: a token is never taken from another source ` +
        `than its base URL. Set it (${howToSetToken}), or remove ${fields.baseUrl}.`,
    );
  }
  if (!hasUrl) {
    throw new CodeSecConnectionError(
      fields.baseUrl,
      `${where} sets ${fields.token} but not ${fields.baseUrl}: a token is never sent to a base URL from ` +
        `another source. Set ${fields.baseUrl} to the platform the token belongs to, or remove ${fields.token}.`,
    );
  }
  return { baseUrl: baseUrl!, token: token!, fields };
}

function explicitConnection(value: object, origin: ConfigOrigin): ResolvedConnection {
  const fields = { baseUrl: "connection.baseUrl", token: "connection.token" };
  // The setting of the field it never falls back to, as its origin names a setting on its own.
  const why = (key: "baseUrl" | "token") => {
    const [setting, env] = key === "token" ? [CONFIG_TOKEN, ENV_TOKEN] : [CONFIG_BASE_URL, ENV_BASE_URL];
    return (
      "an explicit connection carries both of its fields, and never takes " +
      `${origin.prefix(setting)} or ${env} from elsewhere`
    );
  };
  const { baseUrl, token } = connectionFields(value, "connection", fields, why);
  return { baseUrl, token, source: "the connection argument", fields, origin, fromOrigin: false };
}

function namedConnection(name: string, config: ConfigLookup): ResolvedConnection {
  const origin = config.origin ?? STACK_CONFIG;
  // An undefined name is never echoed: it may be a token passed in the wrong place.
  if (!new RegExp(ConnectionName.pattern!).test(name)) {
    throw new CodeSecConnectionError(
      "connection",
      `connection must be ${connectionNameRule(origin.connectionsSetting)}`,
    );
  }
  const connections = definedConnections(config);
  const names = Object.keys(connections);
  if (!Object.hasOwn(connections, name)) {
    throw new CodeSecConnectionError(
      "connection",
      `connection names no connection defined in ${origin.connectionsSetting} ` +
        `(${names.length > 0 ? `defined: ${names.join(", ")}` : "none is defined"}). Define it with ` +
        origin.howToDefineConnection("<name>"),
    );
  }
  const prefix = origin.setting(`${CONFIG_CONNECTIONS}.${name}`);
  const fields = { baseUrl: `${prefix}.baseUrl`, token: `${prefix}.token` };
  const howTo = () => `set it with ${origin.howToDefineConnection(name)}`;
  const { baseUrl, token } = connectionFields(connections[name], prefix, fields, howTo, origin.prefix);
  return { baseUrl, token, source: origin.connectionSource(name), fields, origin, fromOrigin: true };
}

/** `{ baseUrl, token }`, both non-blank strings and nothing else; errors name `fields` and say `why`. */
function connectionFields(
  value: unknown,
  where: string,
  fields: { baseUrl: string; token: string },
  why: (key: "baseUrl" | "token") => string,
  named: (path: string) => string = (path) => path,
): Connection {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CodeSecConnectionError(
      where,
      `${named(where)} must be an object { baseUrl, token }; ${why("token")}`,
    );
  }
  const entry = value as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (key !== "baseUrl" && key !== "token") {
      throw new CodeSecConnectionError(
        `${where}.${key}`,
        `${named(`${where}.${key}`)} is not a field of a connection; its fields are baseUrl, token`,
      );
    }
  }
  for (const key of ["baseUrl", "token"] as const) {
    const field = entry[key];
    if (typeof field !== "string" || isBlank(field)) {
      throw new CodeSecConnectionError(
        fields[key],
        `${named(fields[key])} is required (a non-blank string): ${why(key)}`,
      );
    }
  }
  return { baseUrl: entry.baseUrl as string, token: entry.token as string };
}

/**
 * The names of the connections stack config defines (`codesec:connections`); throws, naming the key, when
 * its value is not an object of named connections.
 */
export function connectionNames(config: ConfigLookup): string[] {
  return Object.keys(definedConnections(config));
}

/** The named connections in stack config (`codesec:connections`, a JSON object once set with --path). */
function definedConnections(config: ConfigLookup): Record<string, unknown> {
  const text = config(CONFIG_CONNECTIONS);
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    // Not echoed: the value may hold tokens.
    const origin = config.origin ?? STACK_CONFIG;
    throw new CodeSecConnectionError(
      origin.setting(CONFIG_CONNECTIONS),
      `${origin.connectionsSetting} must be an object of named connections; set each one with ` +
        origin.howToDefineConnection("<name>"),
    );
  }
  return parsed as Record<string, unknown>;
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === "";
}
