/**
 * How the client's messages name where each of its settings is set. A plain client names its own option
 * and the provider package's stack config key (`raise timeoutMs (stack config codesec:timeoutMs)`); a
 * caller whose users set these elsewhere gives its own words, which then replace both: the provider does,
 * for an explicit `codesec.Provider` resource, whose users set its inputs and have no stack config key.
 */
import { CodeSecInputError } from "./errors";
import { checkOptionNames, isMessageLine, MAX_MESSAGE_LINE_LENGTH } from "./optionChecks";

/**
 * Where the caller's users set each of the client's settings, in their words
 * (`the timeoutMs input of provider "org2"`): one line of printable text, used as a phrase in messages.
 * A part left out keeps the client's default words.
 */
export interface SettingNames {
  /** Where the base URL is set. Default `codesec:baseUrl / CODESEC_BASE_URL`. */
  readonly baseUrl?: string;
  /**
   * Where the token is set. Default: the client's `token` option and the provider package's places
   * (`codesec:connections.<name>.token`, `codesec:token`, `CODESEC_TOKEN`).
   */
  readonly token?: string;
  /** Where `timeoutMs` is set. Default `stack config codesec:timeoutMs`. */
  readonly timeoutMs?: string;
  /**
   * Where `deadlineMs` is set. Default: the client option and `stack config codesec:deadlineMs`. Unused
   * by a client with a `deadlineLabel`: that says another limit (a resource's customTimeouts) chose its
   * deadline, named in its own terms, where this names the `deadlineMs` setting whose value messages quote
   * (`deadlineMs 300 ms, <this>`); neither can be made from the other.
   */
  readonly deadlineMs?: string;
  /** Where `maxRetryDelayMs` is set. Default: the client option and `stack config codesec:maxRetryDelayMs`. */
  readonly maxRetryDelayMs?: string;
  /** Where `allowInsecureHttp` is set. Default: the client option and `stack config codesec:allowInsecureHttp`. */
  readonly allowInsecureHttp?: string;
}

const SETTING_NAME_KEYS: readonly (keyof SettingNames)[] = [
  "baseUrl",
  "token",
  "timeoutMs",
  "deadlineMs",
  "maxRetryDelayMs",
  "allowInsecureHttp",
];

/** The words of the messages for each setting, the defaults filled in. */
export interface SettingWords {
  /** After `the base URL`, in parentheses. */
  readonly baseUrl: string;
  /** After `where this connection's token is set`, in parentheses. */
  readonly token: string;
  /** After `raise timeoutMs`, in parentheses. */
  readonly timeoutMs: string;
  /** After `deadlineMs <n> ms, `: where the deadline reached was set. */
  readonly deadlineMs: string;
  /** What to raise for a longer deadline. */
  readonly raiseDeadlineMs: string;
  /** What to raise for a longer Retry-After cap. */
  readonly raiseMaxRetryDelayMs: string;
  /** After `allowInsecureHttp set to true`, in parentheses. */
  readonly allowInsecureHttp: string;
}

/** Today's words of a plain client: its option, and the provider package's stack config and variables. */
const DEFAULT_WORDS: SettingWords = {
  baseUrl: "codesec:baseUrl / CODESEC_BASE_URL",
  token:
    "the client's token option; for the provider package, the named connection's " +
    "codesec:connections.<name>.token, codesec:token, or CODESEC_TOKEN",
  timeoutMs: "stack config codesec:timeoutMs",
  deadlineMs: "stack config codesec:deadlineMs",
  raiseDeadlineMs: "client option deadlineMs, stack config codesec:deadlineMs",
  raiseMaxRetryDelayMs: "client option maxRetryDelayMs, stack config codesec:maxRetryDelayMs",
  allowInsecureHttp: "client option allowInsecureHttp, stack config codesec:allowInsecureHttp",
};

/** The words for each setting: the caller's where it gave them, else the defaults. */
export function settingWords(names: SettingNames | undefined): SettingWords {
  return {
    baseUrl: names?.baseUrl ?? DEFAULT_WORDS.baseUrl,
    token: names?.token ?? DEFAULT_WORDS.token,
    timeoutMs: names?.timeoutMs ?? DEFAULT_WORDS.timeoutMs,
    deadlineMs: names?.deadlineMs ?? DEFAULT_WORDS.deadlineMs,
    raiseDeadlineMs: names?.deadlineMs ?? DEFAULT_WORDS.raiseDeadlineMs,
    raiseMaxRetryDelayMs: names?.maxRetryDelayMs ?? DEFAULT_WORDS.raiseMaxRetryDelayMs,
    allowInsecureHttp: names?.allowInsecureHttp ?? DEFAULT_WORDS.allowInsecureHttp,
  };
}

/**
 * Setting names are words in messages only: an object of the known keys, each one short line of printable
 * text, as a control character or line break would forge or garble the message it lands in.
 */
export function checkSettingNames(value: unknown): SettingNames | undefined {
  if (value === undefined) return undefined;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    checkOptionNames(value, SETTING_NAME_KEYS, "settingNames", "settingNames");
    const names: Partial<Record<keyof SettingNames, string>> = {};
    let lines = true;
    for (const key of SETTING_NAME_KEYS) {
      const text = (value as Record<string, unknown>)[key];
      if (text === undefined) continue;
      if (isMessageLine(text)) names[key] = text;
      else lines = false;
    }
    if (lines) return names;
  }
  throw new CodeSecInputError(
    "settingNames",
    `settingNames must be an object of lines of at most ${MAX_MESSAGE_LINE_LENGTH} characters, printable ` +
      `text with no control character, for any of ${SETTING_NAME_KEYS.join(", ")}`,
  );
}
