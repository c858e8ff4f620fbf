/**
 * The provider's configuration as the plugin receives it: the default provider's comes from stack config
 * (`codesec:baseUrl`, ...), an explicit Provider resource's from its inputs. Values arrive as text (stack
 * config; the generated Node SDK JSON-encodes every input that is not a string) or as JSON values (other
 * languages); the kinds read them as text by namespaced key (`codesec:token`), exactly as the dynamic
 * provider hands them stack config (provider/dynamic/runtimeCredentials.ts), so that both resolve a
 * connection and its client settings with the same code (connection.ts, clients.ts, ownership.ts) and
 * fail with the same words.
 */
import {
  CONFIG_BASE_URL,
  connectionNames,
  providerInputsOrigin,
  resolveConnection,
  STACK_CONFIG,
  type ConfigLookup,
  type ConfigOrigin,
} from "../connection";
import { clientFor, clientSettingsFrom, skipsCredentialsValidation, type ClientSettings } from "../clients";
import { checkFailure, CodeSecConnectionError, MissingCredentialsError, type CheckFailure } from "../errors";
import { CONFIG_MOVED_FROM, movedFromSetting } from "../ownership";
import { configName, ProviderConfig } from "../providerConfig";
import { isSecretSchema } from "../../api/schemaIssues";
import { containsUnknown } from "../resources/lifecycle";
import { sameValue } from "../resources/definition";
import type { Props } from "./properties";

/** The package's config namespace: `codesec:token`. */
const NAMESPACE = "codesec";

/** The configuration keys (their names in the schema and on the Provider resource), and the secret ones. */
const CONFIG_NAMES = new Set(Object.keys(ProviderConfig.properties));
export const SECRET_CONFIG_NAMES = Object.entries(ProviderConfig.properties)
  .filter(([, schema]) => isSecretSchema(schema))
  .map(([name]) => name);

/**
 * The keys whose value may hold a credential though they are no secret: a base URL refused for the user
 * info or the query it carries (`https://user:password@host`, `?token=...`). A failure never names them,
 * as the engine would print the value beside it; the reason names the key and quotes only what is safe.
 */
const URL_CONFIG_NAMES = [configName(CONFIG_BASE_URL), configName(CONFIG_MOVED_FROM)];

/**
 * The provider's inputs (`{ token: ... }`) as the kinds read configuration: text by `codesec:<name>`,
 * with where they come from (`origin`, for messages).
 */
export function configLookup(inputs: Props, origin: ConfigOrigin = STACK_CONFIG): ConfigLookup {
  const lookup = (key: string) => {
    if (!key.startsWith(`${NAMESPACE}:`)) return undefined;
    const value = inputs[key.slice(NAMESPACE.length + 1)];
    if (value === undefined || value === null) return undefined;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
  return Object.assign(lookup, { origin });
}

/**
 * Where the configuration of the provider with this URN comes from: the default provider's is stack
 * config, an explicit Provider resource's is its inputs. An engine that sends no URN: stack config.
 */
export function configOriginOf(urn: string | undefined): ConfigOrigin {
  const name = urn === undefined || urn === "" ? "" : urn.split("::").slice(3).join("::");
  return name === "" || DEFAULT_PROVIDER_NAME.test(name) ? STACK_CONFIG : providerInputsOrigin(name);
}

/**
 * The names the engine gives the default provider (ProviderRequest.DefaultName, pkg/v3 v3.259.0
 * resource/deploy/providers/provider.go): `default`, or `default_` and then the version's parts
 * (`_0_5_0`, each pre-release and build identifier `_alpha_1`) and the pluginDownloadURL as a QName
 * (`_pulumi.com/pkg`), all QName characters. Exact rather than Pulumi's IsDefaultProvider, which takes any
 * name starting with `default`: that would give `new codesec.Provider("defaultOrg", ...)` the stack config
 * wording, naming settings its user cannot set. A Provider the user names `default_` followed by name
 * characters (letters, digits, `_ . -`, with `/` between parts) still reads as the default provider: the
 * engine's own names take that form too.
 */
const DEFAULT_PROVIDER_NAME = /^default(?:_[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*)?$/;

/** Configure's `variables` (`codesec:config:<name>` -> text) as inputs, for an engine that sends no `args`. */
export function inputsFromVariables(variables: Iterable<[string, string]>): Props {
  const prefix = `${NAMESPACE}:config:`;
  const inputs: Props = {};
  for (const [key, value] of variables) if (key.startsWith(prefix)) inputs[key.slice(prefix.length)] = value;
  return inputs;
}

/**
 * CheckConfig: every problem of a provider configuration, with the words the dynamic provider uses for the
 * same configuration, without sending any request (the credentials are proven at the first resource's
 * Check). A value still unknown at preview is checked at apply, and so is what depends on it (plain http
 * while `allowInsecureHttp` is unknown). Checked: the client settings, the
 * credential check switch, `movedFrom`, each named connection (whole, and its base URL), and the default
 * connection (stack config or provider inputs, else the environment), which may be missing when named
 * connections are defined (resources then name theirs).
 */
export function configFailures(
  news: Props,
  env: NodeJS.ProcessEnv = process.env,
  origin: ConfigOrigin = STACK_CONFIG,
): CheckFailure[] {
  const known = Object.fromEntries(
    Object.entries(news).filter(([name, value]) => CONFIG_NAMES.has(name) && !containsUnknown(value)),
  );
  const config = configLookup(known, origin);
  const failures: CheckFailure[] = [];
  const attempt = (check: () => void) => {
    try {
      check();
    } catch (error) {
      if (!(error instanceof CodeSecConnectionError)) throw error;
      // A setting the client refuses fails every connection's client alike: said once.
      if (!failures.some((failure) => failure.reason === error.message)) failures.push(configFailure(error));
    }
  };
  let settings: ClientSettings = {};
  attempt(() => (settings = clientSettingsFrom(config)));
  // The opt-in to plain http still unknown: the http rule is checked at apply, the rest of a base URL now.
  if (containsUnknown(news.allowInsecureHttp)) settings = { ...settings, allowInsecureHttp: true };
  attempt(() => skipsCredentialsValidation(config));
  attempt(() => movedFromSetting(config(CONFIG_MOVED_FROM), origin));
  let names: string[] = [];
  attempt(() => (names = connectionNames(config)));
  for (const name of names) attempt(() => clientFor(resolveConnection(name, config, env), settings));
  // The default connection. A base URL or token still unknown stands in as a valid value, so that the known
  // one is checked on its own (a blank token beside an unknown base URL fails now, not at apply); connections
  // still unknown may define names, so no credentials at all is no failure then.
  const standIns: Props = {};
  if (containsUnknown(news.baseUrl)) standIns.baseUrl = STAND_IN_BASE_URL;
  if (containsUnknown(news.token)) standIns.token = STAND_IN_TOKEN;
  const defaultConfig =
    Object.keys(standIns).length > 0 ? configLookup({ ...known, ...standIns }, origin) : config;
  const namesMayExist = names.length > 0 || containsUnknown(news.connections);
  attempt(() => {
    try {
      clientFor(resolveConnection(undefined, defaultConfig, env), settings);
    } catch (error) {
      if (error instanceof MissingCredentialsError && namesMayExist) return;
      throw error;
    }
  });
  return failures;
}

/** Valid values in place of a base URL or token not known until apply, for checking the other alone. */
const STAND_IN_BASE_URL = "https://unknown-until-apply.invalid";
const STAND_IN_TOKEN = "unknown-until-apply";

/**
 * A configuration problem as a check failure: it names the setting (`timeoutMs`) when the engine may print
 * its value, never a secret one, a base URL or a nested path (provider/errors.ts); the reason names the
 * setting anyway.
 */
function configFailure(error: CodeSecConnectionError): CheckFailure {
  const path = error.field.startsWith(`${NAMESPACE}:`)
    ? error.field.slice(NAMESPACE.length + 1)
    : error.field;
  return checkFailure(ProviderConfig, [...SECRET_CONFIG_NAMES, ...URL_CONFIG_NAMES], path, error.message);
}

/** One configuration key that differs between two configurations. */
export interface ConfigChange {
  readonly name: string;
  readonly kind: "add" | "delete" | "update";
}

/**
 * DiffConfig: the keys whose value differs, as the kinds read it (the text `"3"` and the number 3 are one
 * value). A value still unknown is a change. No change of configuration replaces a resource: each records
 * the platform it belongs to (provider/ownership.ts).
 */
export function configChanges(olds: Props, news: Props): ConfigChange[] {
  const changes: ConfigChange[] = [];
  for (const name of new Set([...Object.keys(olds), ...Object.keys(news)])) {
    const [old, next] = [asText(olds[name]), asText(news[name])];
    if (!containsUnknown(next) && sameValue(old, next)) continue;
    changes.push({ name, kind: old === undefined ? "add" : next === undefined ? "delete" : "update" });
  }
  return changes;
}

function asText(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}
