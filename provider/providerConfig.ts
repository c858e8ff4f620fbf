/**
 * The provider's configuration: every key a stack sets under `codesec:` (stack config) or an explicit
 * Provider resource takes as an input, with its type and what it does. The keys are the ones the code
 * reads (connection.ts, clients.ts, ownership.ts), named from their constants so the two cannot part; the
 * schema's `config.variables` and the Provider resource's inputs are derived from this object
 * (scripts/schema.ts); the keys that hold credentials are marked `secretValue`, which the schema turns into
 * `secret: true`. Values are resolved and checked by that code, not here: environment fallbacks
 * (`CODESEC_BASE_URL` / `CODESEC_TOKEN`) included, so that a connection comes whole from one source.
 */
import { Type } from "../api/typeBuilder";
import { described, secretValue } from "../api/schemaIssues";
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES,
} from "../client/client";
import {
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_REQUESTS_PER_SECOND,
  MAX_IN_FLIGHT_LIMIT,
  MAX_REQUESTS_PER_SECOND,
  BURST_WINDOW_MS,
} from "../client/rateLimiter";
import {
  CLIENT_SETTING_KEYS,
  CONFIG_ALLOW_INSECURE_HTTP,
  CONFIG_SKIP_CREDENTIALS_VALIDATION,
} from "./clients";
import {
  CONFIG_BASE_URL,
  CONFIG_CONNECTIONS,
  CONFIG_TOKEN,
  ConnectionObject,
  ENV_BASE_URL,
  ENV_TOKEN,
} from "./connection";
import { CONFIG_MOVED_FROM } from "./ownership";

type ConfigName<K extends string> = K extends `codesec:${infer Name}` ? Name : never;

/** `codesec:baseUrl` -> `baseUrl`: a key's name in the schema and on the Provider resource. */
export function configName<K extends `codesec:${string}`>(key: K): ConfigName<K> {
  return key.slice("codesec:".length) as ConfigName<K>;
}

/** The client settings, under the client options' names (which are their config names too). */
const clientSettings = {
  timeoutMs: described(
    Type.Optional(Type.Number()),
    `Timeout in milliseconds of one attempt: connecting, the headers and the whole body. Default ${DEFAULT_TIMEOUT_MS}.`,
  ),
  deadlineMs: described(
    Type.Optional(Type.Number()),
    "Bound in milliseconds on a whole call: attempts, backoff and `Retry-After` waits. Default " +
      `${DEFAULT_DEADLINE_MS}; a resource's \`customTimeouts\` shortens it for that step.`,
  ),
  retries: described(
    Type.Optional(Type.Integer()),
    `Extra attempts after the first (0-${MAX_RETRIES}), where the operation's retry class allows one. ` +
      `Default ${DEFAULT_RETRIES}.`,
  ),
  maxRetryDelayMs: described(
    Type.Optional(Type.Number()),
    "Longest wait in milliseconds before a retry; a longer `Retry-After` fails the call at once, giving " +
      `the time to wait. Default ${DEFAULT_MAX_RETRY_DELAY_MS}.`,
  ),
  requestsPerSecond: described(
    Type.Optional(Type.Number()),
    `Requests per second to one platform at most (1-${MAX_REQUESTS_PER_SECOND}, may be fractional; after a quiet ` +
      `spell up to ${BURST_WINDOW_MS} ms worth back to back), shared by every resource and function of this provider, which ` +
      `runs in a process of its own: providers calling with one token at once add up, so give each a share of ` +
      `the platform's limit. Default ${DEFAULT_REQUESTS_PER_SECOND}.`,
  ),
  maxInFlight: described(
    Type.Optional(Type.Integer()),
    `Requests to one platform in flight at once at most (1-${MAX_IN_FLIGHT_LIMIT}), shared the same way. ` +
      `Default ${DEFAULT_MAX_IN_FLIGHT}.`,
  ),
} satisfies Record<keyof typeof CLIENT_SETTING_KEYS, unknown>;

export const ProviderConfig = Type.Object({
  [configName(CONFIG_BASE_URL)]: described(
    Type.Optional(Type.String()),
    "Base address of the platform API, e.g. `https://codesec.example.com` (without `/api`). Set together " +
      `with \`token\`; when neither is set, the environment variables ${ENV_BASE_URL} and ${ENV_TOKEN} ` +
      "are used (both, never one of them).",
  ),
  [configName(CONFIG_TOKEN)]: described(
    Type.Optional(secretValue(Type.String())),
    "API token (with the Web API permission) or user JWT for `baseUrl`. Always stored as a secret.",
  ),
  [configName(CONFIG_CONNECTIONS)]: described(
    Type.Optional(secretValue(Type.Record(Type.String(), ConnectionObject))),
    "Named connections `{ baseUrl, token }`, for a second organization in one stack: a resource names one " +
      "in its `connection` input. Stored as a secret (the tokens).",
  ),
  ...clientSettings,
  [configName(CONFIG_ALLOW_INSECURE_HTTP)]: described(
    Type.Optional(Type.Boolean()),
    "`true`: accept a plain `http://` base URL to another machine, where the token crosses the network " +
      "unencrypted (a platform reached over a network you trust, such as an emulator in another " +
      "container). Default `false`: `http://` only to this machine (`localhost`, 127.0.0.0/8, `[::1]`).",
  ),
  [configName(CONFIG_SKIP_CREDENTIALS_VALIDATION)]: described(
    Type.Optional(Type.Boolean()),
    "`true`: `pulumi preview` makes no credential read (air-gapped previews). Default `false`.",
  ),
  [configName(CONFIG_MOVED_FROM)]: described(
    Type.Optional(Type.String()),
    "The platform (base URL) the stack's resources are moving from: set it to move them on purpose to the " +
      "platform `baseUrl` now points to; the next `pulumi up` applies them there (docs/credentials.md).",
  ),
});
