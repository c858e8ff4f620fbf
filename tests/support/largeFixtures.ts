/** Fixture sets with a large store, for tests that a request's cost does not grow with the data set. */
import { defaultFixtures } from "../../emulator/defaultFixtures";
import { type FixtureNotificationRule, type FixtureSet } from "../../emulator/fixtureSchema";

/** The default fixtures plus `count` notification rules of deployment 1001 (ids from 1001 on). */
export function fixturesWithRules(count: number): FixtureSet {
  const fixtures = defaultFixtures();
  for (let i = 0; i < count; i += 1) {
    const rule: FixtureNotificationRule = {
      id: 1001 + i,
      deploymentId: "1001",
      channel: i % 2 === 0 ? "slack" : "email",
      config: { channel: `#rule-${i}` },
      is_enabled: true,
      name: `rule-${i}`,
      policy_slugs: ["secrets"],
      use_network_broker: false,
      config_error: "",
      send_scan_completion: false,
    };
    fixtures.notificationRules.push(rule);
  }
  return fixtures;
}

/**
 * The JSON size of everything deep-copied while `run` runs. The emulator's store copies with
 * structuredClone (a deep copy, which is what keeps callers from reaching its state), so this measures
 * what a call or a request copies, without timing anything.
 */
export async function bytesCopiedDuring(run: () => unknown): Promise<number> {
  const original = globalThis.structuredClone;
  let bytes = 0;
  globalThis.structuredClone = ((value: unknown, options?: Parameters<typeof structuredClone>[1]) => {
    bytes += JSON.stringify(value)?.length ?? 0;
    return original(value, options);
  }) as typeof structuredClone;
  try {
    await run();
  } finally {
    globalThis.structuredClone = original;
  }
  return bytes;
}

/** The ids of the members {@link fixturesWithMembers} adds: `90001`, `90002`, ... */
export function scaleMemberIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(90001 + i));
}

/** The default fixtures plus `count` members of deployment 1001 (role member), for organization-scale stacks. */
export function fixturesWithMembers(count: number): FixtureSet {
  const fixtures = defaultFixtures();
  for (const id of scaleMemberIds(count)) {
    fixtures.users.push({
      id,
      name: `Member ${id}`,
      email: `member-${id}@acme.example`,
      login: `member-${id}`,
      authDetails: [],
      roles: { "1001": "ORG_ROLE_MEMBER" },
    });
  }
  return fixtures;
}
