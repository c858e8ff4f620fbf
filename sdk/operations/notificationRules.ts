/** Notification rules: operation 10 (listNotificationRules), one page or all pages. */
import { Type } from "@sinclair/typebox";
import {
  ListNotificationRulesBody,
  ListNotificationRulesResponse,
  NOTIFICATION_LIMIT_MAX,
  NotificationRuleFilters,
  type NotificationRule,
  type NotificationRuleFilters as NotificationRuleFiltersType,
} from "../schemas/notificationRules";
import { CodeSecInputError } from "../errors";
import {
  argsObject,
  conformingBody,
  optionalConforming,
  optionalInteger,
  optionalString,
} from "../inputValidation";
import { buildPath, operationRef } from "../pathParams";
import { responseError, validateResponse } from "../responseValidation";
import type { CallResult, Transport } from "../transport";

const OP = "listNotificationRules";

/** Pages fetched by listAllNotificationRules before it gives up, unless maxPages says otherwise. */
export const DEFAULT_MAX_PAGES = 1000;

export interface ListNotificationRulesArgs {
  /** Numeric deployment id, as a string (sent as an integer in the body). */
  deploymentId: string;
  /** Page size, an integer 1..100 (options.optionalLimit); the platform's default when omitted. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  filters?: NotificationRuleFiltersType;
}

export interface ListAllNotificationRulesArgs {
  deploymentId: string;
  /** Page size, an integer 1..100; default 100 (fewest round trips). */
  pageSize?: number;
  filters?: NotificationRuleFiltersType;
  /** Upper bound on pages fetched; default 1000. */
  maxPages?: number;
}

/** One page of notification rules; `nextCursor` is absent on the last page. */
export interface NotificationRulesPage {
  rules: NotificationRule[];
  nextCursor?: string;
}

// The cursor is read tolerantly (below), so the page is validated without it.
const PageBody = Type.Omit(ListNotificationRulesResponse, ["cursor"]);

export async function listNotificationRules(
  transport: Transport,
  args: ListNotificationRulesArgs,
): Promise<NotificationRulesPage> {
  const input = argsObject(OP, args, "{ deploymentId, limit?, cursor?, filters? }");
  const limit = optionalInteger(OP, "limit", input.limit, 1, NOTIFICATION_LIMIT_MAX);
  const cursor = optionalString(OP, "cursor", input.cursor);
  return (await fetchPage(transport, input, limit, cursor)).page;
}

export async function listAllNotificationRules(
  transport: Transport,
  args: ListAllNotificationRulesArgs,
): Promise<NotificationRule[]> {
  const input = argsObject(OP, args, "{ deploymentId, pageSize?, filters?, maxPages? }");
  const pageSize =
    optionalInteger(OP, "pageSize", input.pageSize, 1, NOTIFICATION_LIMIT_MAX) ?? NOTIFICATION_LIMIT_MAX;
  const maxPages = optionalInteger(OP, "maxPages", input.maxPages, 1, 1_000_000) ?? DEFAULT_MAX_PAGES;
  const rules: NotificationRule[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pageNumber = 1; ; pageNumber++) {
    const { page, result } = await fetchPage(transport, input, pageSize, cursor);
    rules.push(...page.rules);
    const next = page.nextCursor;
    if (next === undefined) return rules;
    // A cursor seen before would loop forever (a server bug); stop with an error, not partial data.
    if (seen.has(next)) {
      throw responseError(
        OP,
        result,
        `page ${pageNumber} returned a cursor already seen, so paging would never end`,
        "cursor",
      );
    }
    if (pageNumber >= maxPages) {
      throw responseError(
        OP,
        result,
        `more than maxPages (${maxPages}) pages; raise maxPages to read them all`,
        "cursor",
      );
    }
    seen.add(next);
    cursor = next;
  }
}

async function fetchPage(
  transport: Transport,
  input: Record<string, unknown>,
  limit: number | undefined,
  cursor: string | undefined,
): Promise<{ page: NotificationRulesPage; result: CallResult }> {
  const path = buildPath(OP, input);
  const deploymentId = Number(input.deploymentId);
  if (!Number.isSafeInteger(deploymentId)) {
    throw new CodeSecInputError(
      "deploymentId",
      `deploymentId is too large to send as an integer, got ${JSON.stringify(input.deploymentId)}`,
      operationRef(OP),
    );
  }
  const filters = optionalConforming(OP, "filters", NotificationRuleFilters, input.filters);
  const options = {
    ...(limit === undefined ? {} : { optionalLimit: limit }),
    ...(cursor === undefined ? {} : { cursor: { token: cursor } }),
  };
  const body = {
    deploymentId,
    ...(Object.keys(options).length === 0 ? {} : { options }),
    ...(filters === undefined ? {} : { filters }),
  } as ListNotificationRulesBody;
  conformingBody(OP, ListNotificationRulesBody, body);
  const result = await transport.call({ operation: OP, path, body });
  const valid = validateResponse(PageBody, result, OP);
  const nextCursor = readNextCursor(result);
  const page: NotificationRulesPage = { rules: valid.notification_rules };
  if (nextCursor !== undefined) page.nextCursor = nextCursor;
  return { page, result };
}

/**
 * The next-page cursor: `cursor.token` as the schema defines it, and, tolerated because the spec
 * leaves the cursor open, `next_cursor` / `nextCursor`, each an object with `token` or a string.
 * An empty or null cursor means the last page.
 */
export function readNextCursor(result: CallResult): string | undefined {
  const body = result.body as Record<string, unknown>;
  for (const key of ["cursor", "next_cursor", "nextCursor"]) {
    const value = body[key];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value === "string") return value;
    if (typeof value === "object" && !Array.isArray(value)) {
      const token = (value as Record<string, unknown>).token;
      if (token === undefined || token === null || token === "") continue;
      if (typeof token === "string") return token;
      throw responseError(OP, result, `${key}.token must be a string`, `${key}.token`, "string");
    }
    throw responseError(
      OP,
      result,
      `${key} must be an object with a token, or a string`,
      key,
      "object or string",
    );
  }
  return undefined;
}
