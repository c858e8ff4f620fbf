/**
 * Notification rules: `listNotificationRules`. These bodies use snake_case field names, as the spec says; the
 * Pulumi schema names them in camelCase (provider/schemaNames.ts).
 */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { described } from "../schemaIssues";

export const NOTIFICATION_LIMIT_DEFAULT = 50;
export const NOTIFICATION_LIMIT_MAX = 100;

export const NotificationRule = Type.Object({
  id: described(Type.Integer(), "The rule's id."),
  channel: described(
    Type.String(),
    "Where notifications go, e.g. `slack` (the spec does not list the values).",
  ),
  config: described(Type.Record(Type.String(), Type.Unknown()), "The channel's settings."),
  is_enabled: described(Type.Boolean(), "Whether the rule is switched on."),
  name: described(Type.String(), "The rule's name."),
  policy_slugs: described(Type.Array(Type.String()), "Policies whose findings the rule notifies about."),
  use_network_broker: described(Type.Boolean(), "Whether notifications go through the network broker."),
  config_error: described(
    Type.String(),
    "What is wrong with the rule's configuration (the platform cannot deliver through it); empty when healthy.",
  ),
  send_scan_completion: described(Type.Boolean(), "Whether the rule also notifies when a scan completes."),
});
export type NotificationRule = Static<typeof NotificationRule>;

export const NotificationRuleFilters = Type.Object(
  {
    channel: described(
      Type.Optional(Type.String()),
      "Only the rules of this channel, e.g. `slack` (exact match).",
    ),
    is_enabled: described(
      Type.Optional(Type.Boolean()),
      "Only the enabled (true) or the disabled (false) rules.",
    ),
  },
  { additionalProperties: false },
);
export type NotificationRuleFilters = Static<typeof NotificationRuleFilters>;

/**
 * A deployment id that `listNotificationRules` can carry as a JSON integer: at most 15 digits, so that it
 * stays exact in every JSON parser (above 2^53 integers lose precision).
 */
export const IntegerDeploymentId = Type.String({
  pattern: "^[0-9]{1,15}$",
  description: "a numeric id of at most 15 digits (sent as an integer)",
});

/** Page size of `listNotificationRules` (options.optionalLimit). */
export const NotificationPageSize = Type.Integer({ minimum: 1, maximum: NOTIFICATION_LIMIT_MAX });

/** Arguments of `listNotificationRules` (one page). */
export const ListNotificationRulesArgs = Type.Object(
  {
    deploymentId: IntegerDeploymentId,
    /** Page size (options.optionalLimit); the platform's default when omitted. */
    limit: Type.Optional(NotificationPageSize),
    /** `nextCursor` of the previous page. */
    cursor: Type.Optional(Type.String({ minLength: 1 })),
    filters: Type.Optional(NotificationRuleFilters),
  },
  { additionalProperties: false },
);
export type ListNotificationRulesArgs = Static<typeof ListNotificationRulesArgs>;

/** Upper bound on the pages `listAllNotificationRules` follows unless told otherwise. */
export const DEFAULT_MAX_PAGES = 1000;

/** Arguments of `listAllNotificationRules` (`listNotificationRules`, every page from `cursor` on). */
export const ListAllNotificationRulesArgs = Type.Object(
  {
    deploymentId: IntegerDeploymentId,
    /** Page size; default 100, the largest, for the fewest round trips. */
    pageSize: Type.Optional(NotificationPageSize),
    /** Start from this cursor token (from an earlier listing) instead of the first page. */
    cursor: Type.Optional(Type.String({ minLength: 1 })),
    filters: Type.Optional(NotificationRuleFilters),
    /** Upper bound on pages followed; default 1000. Paging stops with an error beyond it. */
    maxPages: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
export type ListAllNotificationRulesArgs = Static<typeof ListAllNotificationRulesArgs>;

/**
 * Arguments of the provider's `getNotificationRules`: the listing's, with the page size under the name
 * that function has always used (`limit`).
 */
export const GetNotificationRulesArgs = Type.Object(
  {
    deploymentId: described(IntegerDeploymentId, "Deployment (organization) id."),
    limit: described(
      Type.Optional(NotificationPageSize),
      "Page size asked of the platform (default 100, the largest). Every page is followed.",
    ),
    cursor: described(
      Type.Optional(Type.String({ minLength: 1 })),
      "Start from this cursor token (from an earlier listing) instead of the first page.",
    ),
    filters: described(
      Type.Optional(NotificationRuleFilters),
      "Only the rules of this channel and/or enabled state.",
    ),
    maxPages: described(
      Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
      "Stop with an error after this many pages (default 1000), rather than page without end.",
    ),
  },
  { additionalProperties: false },
);
export type GetNotificationRulesArgs = Static<typeof GetNotificationRulesArgs>;

/** Result of the provider's `getNotificationRules`. */
export const GetNotificationRulesResult = Type.Object({
  deploymentId: described(Type.String(), "The deployment, as given."),
  rules: described(
    Type.Array(NotificationRule),
    "Every rule from the first (or the given) page on, in the platform's order.",
  ),
  rulesWithProblems: described(
    Type.Array(NotificationRule),
    "The rules that need attention: those whose configuration has an error and those that are disabled.",
  ),
});
export type GetNotificationRulesResult = Static<typeof GetNotificationRulesResult>;

/** Body of `listNotificationRules` (POST .../actions/list). `deploymentId` is an integer here. */
export const ListNotificationRulesBody = Type.Object(
  {
    deploymentId: Type.Integer({ minimum: 0 }),
    options: Type.Optional(
      Type.Object(
        {
          optionalLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: NOTIFICATION_LIMIT_MAX })),
          cursor: Type.Optional(
            Type.Object({ token: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    filters: Type.Optional(NotificationRuleFilters),
  },
  { additionalProperties: false },
);
export type ListNotificationRulesBody = Static<typeof ListNotificationRulesBody>;

export const ListNotificationRulesResponse = Type.Object({
  notification_rules: Type.Array(NotificationRule),
  /** Present when another page follows; pass its token back as options.cursor.token. */
  cursor: Type.Optional(Type.Object({ token: Type.String() })),
});
export type ListNotificationRulesResponse = Static<typeof ListNotificationRulesResponse>;

/**
 * A page as the client validates it: the cursor is read tolerantly, apart from the schema (client/operations).
 */
export const NotificationRulesPageBody = Type.Omit(ListNotificationRulesResponse, ["cursor"]);
