import type { NotificationRule, NotificationRuleFilters } from "../../api/schemas/notificationRules";
import { getNotificationRulesDefinition } from "./definitions";
import { invokeFunction, outputForm, type CodeSecInvokeOptions } from "./invokeOptions";

/** Arguments of {@link getNotificationRules}. */
export interface GetNotificationRulesArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** Page size asked of the platform (1-100; default 100). All pages are followed. */
  limit?: number;
  /** Start from this cursor token (from an earlier listing) instead of the first page. */
  cursor?: string;
  /** Only rules of this channel / enabled state. */
  filters?: NotificationRuleFilters;
  /** Stop with an error after this many pages (default 1000), rather than page without end. */
  maxPages?: number;
}

/** Result of {@link getNotificationRules}. */
export interface GetNotificationRulesResult {
  deploymentId: string;
  /** Every rule from the first (or the given) page on, in the platform's order. Fields are snake_case. */
  rules: NotificationRule[];
  /** Rules whose configuration is broken (non-empty `config_error`) or that are disabled. */
  rulesWithProblems: NotificationRule[];
}

/**
 * Notification rules of a deployment (operation 10, `POST
 * /api/agent/deployments/{deploymentId}/actions/list`), following further pages when the platform
 * returns a cursor. **Experimental**.
 *
 * @example
 * ```ts
 * const { rulesWithProblems } = await codesec.getNotificationRules({ deploymentId: "1001" });
 * for (const rule of rulesWithProblems) console.log(rule.name, rule.config_error || "disabled");
 * ```
 */
export async function getNotificationRules(
  args: GetNotificationRulesArgs,
  opts?: CodeSecInvokeOptions,
): Promise<GetNotificationRulesResult> {
  return invokeFunction(getNotificationRulesDefinition, args, opts);
}

/**
 * Output form of {@link getNotificationRules}. **Experimental**.
 *
 * @example
 * ```ts
 * export const brokenRules = codesec.getNotificationRulesOutput({ deploymentId }).rulesWithProblems;
 * ```
 */
export const getNotificationRulesOutput = outputForm(getNotificationRules);
