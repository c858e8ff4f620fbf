/** Listing notification rules (listNotificationRules): one page, all pages, or one page's status. */
import {
  DEFAULT_MAX_PAGES,
  ListAllNotificationRulesArgs,
  ListNotificationRulesArgs,
  NotificationRulesPageBody,
  NOTIFICATION_LIMIT_MAX,
  type ListNotificationRulesBody,
  type NotificationRule,
  type NotificationRuleFilters,
} from "../../api/schemas/notificationRules";
import { operationSubject, validateArguments } from "../argumentValidation";
import { buildPath } from "../pathParams";
import { responseError } from "../errors";
import { validateResponse } from "../responseValidation";
import type { CallRequest, CallResult, Transport } from "../transport";

const OP = "listNotificationRules";

/** One page of notification rules; `nextCursor` is absent on the last page. */
export interface NotificationRulesPage {
  rules: NotificationRule[];
  nextCursor?: string;
}

export async function listNotificationRules(
  transport: Transport,
  args: ListNotificationRulesArgs,
): Promise<NotificationRulesPage> {
  const input = validateArguments(operationSubject(OP), ListNotificationRulesArgs, args);
  return (await fetchPage(transport, input.deploymentId, input.filters, input.limit, input.cursor)).page;
}

/**
 * The status of a one-page list, its body left unread: a 2xx answer (anything else throws the client's
 * error). For a caller that needs only to know whether the platform lists the deployment's rules at all,
 * which a body missing a rule field must not hide.
 */
export async function listNotificationRulesStatus(
  transport: Transport,
  args: ListNotificationRulesArgs,
): Promise<number> {
  const input = validateArguments(operationSubject(OP), ListNotificationRulesArgs, args);
  const request = pageRequest(input.deploymentId, input.filters, input.limit, input.cursor);
  return (await transport.call({ ...request, statusOnly: true })).status;
}

/**
 * Every rule from the first page (or from `cursor`) on. The one paging loop of the package, with one
 * bound: a platform that repeats a cursor, or that keeps issuing new ones beyond `maxPages`, ends with
 * an error rather than endless requests or a silently partial list.
 */
export async function listAllNotificationRules(
  transport: Transport,
  args: ListAllNotificationRulesArgs,
): Promise<NotificationRule[]> {
  const input = validateArguments(operationSubject(OP), ListAllNotificationRulesArgs, args);
  const pageSize = input.pageSize ?? NOTIFICATION_LIMIT_MAX;
  const maxPages = input.maxPages ?? DEFAULT_MAX_PAGES;
  const rules: NotificationRule[] = [];
  const seen = new Set<string>();
  let cursor = input.cursor;
  for (let pageNumber = 1; ; pageNumber++) {
    const { page, result } = await fetchPage(transport, input.deploymentId, input.filters, pageSize, cursor);
    rules.push(...page.rules);
    const next = page.nextCursor;
    if (next === undefined) return rules;
    if (seen.has(next) || next === cursor) {
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
  deploymentId: string,
  filters: NotificationRuleFilters | undefined,
  limit: number | undefined,
  cursor: string | undefined,
): Promise<{ page: NotificationRulesPage; result: CallResult }> {
  const result = await transport.call(pageRequest(deploymentId, filters, limit, cursor));
  const valid = validateResponse(NotificationRulesPageBody, result, OP);
  const nextCursor = readNextCursor(result);
  const page: NotificationRulesPage = { rules: valid.notification_rules };
  if (nextCursor !== undefined) page.nextCursor = nextCursor;
  return { page, result };
}

/** The request for one page. */
function pageRequest(
  deploymentId: string,
  filters: NotificationRuleFilters | undefined,
  limit: number | undefined,
  cursor: string | undefined,
): CallRequest {
  const options = {
    ...(limit === undefined ? {} : { optionalLimit: limit }),
    ...(cursor === undefined ? {} : { cursor: { token: cursor } }),
  };
  // The body carries the deployment id as an integer (the schema keeps it within 15 digits, exact).
  const body: ListNotificationRulesBody = {
    deploymentId: Number(deploymentId),
    ...(Object.keys(options).length === 0 ? {} : { options }),
    ...(filters === undefined ? {} : { filters }),
  };
  return { operation: OP, path: buildPath(OP, { deploymentId }), body };
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

export { DEFAULT_MAX_PAGES, type ListAllNotificationRulesArgs, type ListNotificationRulesArgs };
