/** Notification rules: operation 10. These bodies use snake_case field names, as the spec says. */
import { Type, type Static } from "@sinclair/typebox";

export const NOTIFICATION_LIMIT_DEFAULT = 50;
export const NOTIFICATION_LIMIT_MAX = 100;

export const NotificationRule = Type.Object({
  id: Type.Integer(),
  channel: Type.String(),
  config: Type.Record(Type.String(), Type.Unknown()),
  is_enabled: Type.Boolean(),
  name: Type.String(),
  policy_slugs: Type.Array(Type.String()),
  use_network_broker: Type.Boolean(),
  /** Empty when the rule's configuration is healthy. */
  config_error: Type.String(),
  send_scan_completion: Type.Boolean(),
});
export type NotificationRule = Static<typeof NotificationRule>;

export const NotificationRuleFilters = Type.Object(
  {
    channel: Type.Optional(Type.String()),
    is_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type NotificationRuleFilters = Static<typeof NotificationRuleFilters>;

/** Body of operation 10 (POST .../actions/list). `deploymentId` is an integer here. */
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
