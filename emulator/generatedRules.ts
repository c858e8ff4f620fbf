/**
 * Notification rules made up in bulk, so that a benchmark or a test can give the emulator a large store
 * (`control.addNotificationRules`, `POST /__emulator/notification-rules`). Deterministic: the same ids
 * give the same rules.
 */
import type { FixtureNotificationRule } from "./fixtureSchema";

/** The channels generated rules take turns in, each with the settings it needs. */
const CHANNELS: ReadonlyArray<{ channel: string; config: (id: number) => Record<string, unknown> }> = [
  { channel: "slack", config: (id) => ({ channel: `#generated-${id}`, workspace: "acme" }) },
  { channel: "email", config: (id) => ({ recipients: [`team-${id}@acme.example`] }) },
  { channel: "webhook", config: (id) => ({ url: `https://hooks.acme.example/generated/${id}` }) },
  { channel: "jira", config: (id) => ({ project: "SEC", issueType: "Bug", label: `generated-${id}` }) },
];

/** `count` rules of `deploymentId` with the ids `firstId`, `firstId + 1`, ...; every fifth one disabled. */
export function generateNotificationRules(
  deploymentId: string,
  firstId: number,
  count: number,
): FixtureNotificationRule[] {
  return Array.from({ length: count }, (_, index) => {
    const id = firstId + index;
    const kind = CHANNELS[id % CHANNELS.length];
    return {
      id,
      deploymentId,
      channel: kind.channel,
      config: kind.config(id),
      is_enabled: id % 5 !== 0,
      name: `generated-${kind.channel}-${id}`,
      policy_slugs: ["default"],
      use_network_broker: false,
      config_error: "",
      send_scan_completion: id % 2 === 0,
    };
  });
}
