/**
 * Where the provider finds its credentials. One resolution rule for resources and functions:
 * an explicit `connection` argument, else stack config `codesec:baseUrl` / `codesec:token`,
 * else the environment variables `CODESEC_BASE_URL` / `CODESEC_TOKEN`.
 */
import { Type, type Static } from "@sinclair/typebox";
import { CodeSecClient } from "../sdk";

/** Credentials for one organization's platform API. */
export const ConnectionShape = Type.Object(
  {
    /** Base address of the platform API, e.g. `https://codesec.example.com` or the emulator's URL. */
    baseUrl: Type.String({ minLength: 1 }),
    /** API token (with the Web API permission) or user JWT. Always stored as a secret. */
    token: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
/** Credentials for one organization: `{ baseUrl, token }`. Pass it as `connection` to a resource or function. */
export type Connection = Static<typeof ConnectionShape>;

export const CONFIG_BASE_URL = "codesec:baseUrl";
export const CONFIG_TOKEN = "codesec:token";
export const ENV_BASE_URL = "CODESEC_BASE_URL";
export const ENV_TOKEN = "CODESEC_TOKEN";

/** Reads one namespaced stack config key (`codesec:token`); undefined when unset. */
export type ConfigLookup = (key: string) => string | undefined;

/** Thrown when no credential can be found; the message names all three ways to set it. */
export class MissingCredentialsError extends Error {
  constructor(missing: string[]) {
    super(
      `pulumi-codesec: missing ${missing.join(" and ")}. Set it in one of three ways: ` +
        `stack config (\`pulumi config set ${CONFIG_BASE_URL} <url>\` and ` +
        `\`pulumi config set --secret ${CONFIG_TOKEN} <token>\`), ` +
        `the environment variables ${ENV_BASE_URL} and ${ENV_TOKEN}, ` +
        `or an explicit \`connection: { baseUrl, token }\` argument on the resource or function.`,
    );
    this.name = "MissingCredentialsError";
  }
}

/**
 * Resolves the connection to use. Each field is taken from the first source that has it, so a stack
 * that sets only `codesec:baseUrl` in config can still take the token from `CODESEC_TOKEN`.
 */
export function resolveConnection(
  explicit: Partial<Connection> | undefined,
  config: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
): Connection {
  const baseUrl =
    nonEmpty(explicit?.baseUrl) ?? nonEmpty(config(CONFIG_BASE_URL)) ?? nonEmpty(env[ENV_BASE_URL]);
  const token = nonEmpty(explicit?.token) ?? nonEmpty(config(CONFIG_TOKEN)) ?? nonEmpty(env[ENV_TOKEN]);
  const missing: string[] = [];
  if (baseUrl === undefined) missing.push("the platform base URL");
  if (token === undefined) missing.push("the API token");
  if (baseUrl === undefined || token === undefined) throw new MissingCredentialsError(missing);
  return { baseUrl, token };
}

/** A client for a resolved connection, with the provider's user agent. */
export function clientFor(connection: Connection): CodeSecClient {
  return new CodeSecClient({
    baseUrl: connection.baseUrl,
    token: connection.token,
    userAgent: "pulumi-codesec",
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
