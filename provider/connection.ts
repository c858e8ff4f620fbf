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
import { described, secretValue } from "../api/schemaIssues";
import {
  CONFIG_BASE_URL,
  CONFIG_CONNECTIONS,
  CONFIG_TOKEN,
  ENV_BASE_URL,
  ENV_TOKEN,
  STACK_CONFIG,
  type ConfigOrigin,
  type ConnectionSource,
} from "./configOrigin";
import { CodeSecConnectionError, MissingCredentialsError } from "./errors";

// How messages name the settings is configOrigin.ts's; the modules that read connections take it from here.
export {
  CONFIG_BASE_URL,
  CONFIG_CONNECTIONS,
  CONFIG_ORIGIN_LABEL_PATTERN,
  CONFIG_TOKEN,
  ENV_BASE_URL,
  ENV_TOKEN,
  providerInputsOrigin,
  STACK_CONFIG,
  type ConfigOrigin,
} from "./configOrigin";

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
  description: connectionNameRule(STACK_CONFIG.connectionsSetting),
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
  description: connectionInputRule(STACK_CONFIG.connectionsSetting),
});
/** A connection name (preferred) or, deprecated, explicit credentials. */
export type ConnectionInput = Static<typeof ConnectionInput>;

/**
 * Reads one namespaced configuration key (`codesec:token`); undefined when unset. `origin` says where the
 * keys come from, for messages; without it, stack config.
 */
export type ConfigLookup = ((key: string) => string | undefined) & { readonly origin?: ConfigOrigin };

/** Credentials resolved from one source, with where each field came from (for messages). */
export interface ResolvedConnection extends Connection, ConnectionSource {}

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
