/** The bench's API call counts per phase, from an in-process emulator, and its fixture sets at scale. */
import { expect } from "chai";
import { parseFixtureSet } from "../../emulator/fixtureFiles";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { ApiCallCounter } from "../../bench/support/apiCallCounter";
import { BENCH_DEPLOYMENT, benchFixtures, benchUserId } from "../../bench/support/fixtures";

describe("bench: API call counter", () => {
  let emulator: EmulatorHandle;
  let counter: ApiCallCounter;
  before(async () => {
    emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: 3 }) });
  });
  beforeEach(() => {
    counter = new ApiCallCounter(emulator.control);
  });
  after(() => emulator.close());

  const get = (path: string) =>
    fetch(`${emulator.baseUrl}${path}`, { headers: { authorization: `Bearer ${emulator.apiToken}` } }).then(
      (response) => response.text(),
    );
  const setRole = (userId: string) =>
    fetch(`${emulator.baseUrl}/api/agent/deployments/${BENCH_DEPLOYMENT}/users/${userId}/roles`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${emulator.apiToken}`, "content-type": "application/json" },
      body: JSON.stringify({ deploymentId: BENCH_DEPLOYMENT, userId, newRole: "ORG_ROLE_ADMIN" }),
    }).then((response) => response.text());

  it("counts each phase's requests by operation and status, each request in one phase only", async () => {
    await get("/api/auth/users/current");
    await setRole(benchUserId(0));
    await setRole(benchUserId(1));
    const first = counter.take();
    expect(first.total).to.equal(3);
    expect(first.byOperation).to.deep.equal({ getCurrentUser: 1, updateUserRole: 2 });
    expect(first.byStatus).to.deep.equal({ "200": 3 });

    await setRole("no-such-user");
    const second = counter.take();
    expect(second.total).to.equal(1);
    expect(second.byStatus).to.deep.equal({ "404": 1 });
    expect(counter.take().total).to.equal(0);
  });

  it("gives a scaled fixture set the emulator accepts: N extra members and exactly R rules", () => {
    const set = parseFixtureSet(benchFixtures({ members: 5, rules: 25 }), "bench");
    expect(
      set.users.filter((u) => u.roles[BENCH_DEPLOYMENT] === "ORG_ROLE_MEMBER").map((u) => u.id),
    ).to.include.members([0, 1, 2, 3, 4].map(benchUserId));
    expect(set.notificationRules).to.have.length(25);
  });
});
