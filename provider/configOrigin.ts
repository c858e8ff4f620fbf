/**
 * How messages name a provider's settings: where its configuration comes from (`ConfigOrigin`: the
 * default provider's stack config, or an explicit `codesec.Provider`'s inputs), the settings' keys, and
 * where a resolved connection came from. It imports no failure: the provider's errors (errors.ts) word
 * their messages with it, as connection.ts and ownership.ts do.
 */
import { escapedText, quotedText } from "../api/messageText";
import { literalPattern, patternAround } from "./literalPattern";

export const CONFIG_BASE_URL = "codesec:baseUrl";
export const CONFIG_TOKEN = "codesec:token";
export const CONFIG_CONNECTIONS = "codesec:connections";
export const ENV_BASE_URL = "CODESEC_BASE_URL";
export const ENV_TOKEN = "CODESEC_TOKEN";

/** Stack config key naming the platform a stack's resources are moving from (provider/ownership.ts). */
export const CONFIG_MOVED_FROM = "codesec:movedFrom";

/** Where the default provider's named connections are: the words of `STACK_CONFIG.connectionsSetting`. */
const STACK_CONNECTIONS = `stack config ${CONFIG_CONNECTIONS}`;

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

/** Where a resolved connection came from, with where each field came from (for messages). */
export interface ConnectionSource {
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
