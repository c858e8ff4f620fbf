/**
 * Reading every notification rule takes as few trips as the platform allows: the client asks for its
 * maximum page (100 rules), not the platform's default of 50, counted in the emulator's request log.
 */
import { expect } from "chai";
import { CodeSecClient } from "../../client";
import { defaultFixtures } from "../../emulator/index";
import { NOTIFICATION_LIMIT_MAX } from "../../api/schemas/notificationRules";
import { useEmulator } from "../support/emulator";

const RULES = 250;

describe("CodeSecClient listAllNotificationRules against the emulator: page size", () => {
  const fixtures = defaultFixtures();
  const deploymentId = fixtures.deployments[0].id;
  const template = fixtures.notificationRules.find((rule) => rule.deploymentId === deploymentId)!;
  const others = fixtures.notificationRules.filter((rule) => rule.deploymentId !== deploymentId);
  fixtures.notificationRules = [
    ...others,
    ...Array.from({ length: RULES }, (_, i) => ({ ...template, id: 50_000 + i, name: `rule ${i}` })),
  ];
  const emulator = useEmulator({ fixtures });

  it(`reads ${RULES} rules in ${Math.ceil(RULES / NOTIFICATION_LIMIT_MAX)} requests of ${NOTIFICATION_LIMIT_MAX}`, async () => {
    const e = emulator();
    const client = new CodeSecClient({ baseUrl: e.baseUrl, token: e.apiToken });
    const rules = await client.listAllNotificationRules({ deploymentId: e.deploymentId });
    expect(rules).to.have.length(RULES);
    const listings = e.control.requests().filter((entry) => entry.path.endsWith("/actions/list"));
    expect(listings).to.have.length(3);
  });
});
