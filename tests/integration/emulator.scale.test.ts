/**
 * The emulator with a large store: generated notification rules (`POST /__emulator/notification-rules`,
 * `control.addNotificationRules`), listed completely, and requests that copy only what they touch.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { callApi, callControl, errorOf, useEmulator } from "../support/emulator";
import { bytesCopiedDuring, fixturesWithRules } from "../support/largeFixtures";

const LIST_PATH = "/api/agent/deployments/1001/actions/list";
const ROLE_PATH = "/api/agent/deployments/1001/users/502/roles";
const RULES = 10_000;

interface ListAnswer {
  notification_rules: Array<{ id: number }>;
  cursor?: { token: string };
}

/** Every rule id of deployment 1001, page by page (100 a page). */
async function listAllIds(emulator: EmulatorHandle): Promise<number[]> {
  const ids: number[] = [];
  let token: string | undefined;
  do {
    const answer = await callApi(emulator, "POST", LIST_PATH, {
      body: { deploymentId: 1001, options: { optionalLimit: 100, ...(token ? { cursor: { token } } : {}) } },
    });
    expect(answer.status).to.equal(200);
    const page = answer.json as ListAnswer;
    ids.push(...page.notification_rules.map((r) => r.id));
    token = page.cursor?.token;
  } while (token !== undefined);
  return ids;
}

describe("emulator with a large store", () => {
  const emulator = useEmulator();
  const control = (method: string, path: string, body?: unknown) =>
    callControl(emulator(), method, path, body);

  it("generates notification rules through the control surface; `listNotificationRules` lists every one", async () => {
    const added = await control("POST", "/notification-rules", { deploymentId: "1001", count: RULES });
    expect(added.status).to.equal(201);
    expect(added.json).to.deep.equal({ deploymentId: "1001", added: RULES, firstId: 9, lastId: RULES + 8 });
    const ids = await listAllIds(emulator());
    expect(ids).to.have.length(RULES + 7);
    expect(ids.slice(0, 8)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9]);
    expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0))).to.equal(true);
  });

  it("generates them in process too; refuses an unknown deployment or a count out of range", async () => {
    expect(emulator().control.addNotificationRules({ deploymentId: "1001", count: 2 })).to.deep.equal({
      deploymentId: "1001",
      added: 2,
      firstId: 9,
      lastId: 10,
    });
    const unknown = await control("POST", "/notification-rules", { deploymentId: "9999", count: 1 });
    expect(unknown.status).to.equal(404);
    expect(errorOf(unknown).message).to.include("9999");
    const zero = await control("POST", "/notification-rules", { deploymentId: "1001", count: 0 });
    expect(zero.status).to.equal(400);
    expect(errorOf(zero).message).to.include("count");
  });

  describe("with --state", () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "codesec-scale-"));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it("keeps generated rules across a restart", async () => {
      const stateFile = join(dir, "state.json");
      const first = await startEmulator({ quiet: true, stateFile });
      try {
        first.control.addNotificationRules({ deploymentId: "1001", count: 500 });
      } finally {
        await first.close();
      }
      const second = await startEmulator({ quiet: true, stateFile });
      try {
        expect(await listAllIds(second)).to.have.length(507);
      } finally {
        await second.close();
      }
    });
  });

  describe(`loaded with ${RULES} rules through the fixtures`, () => {
    const big = useEmulator({ fixtures: fixturesWithRules(RULES) });

    it("a page from the middle of 10,000 rules, a role write and a read copy only what they touch", async () => {
      const first = (await callApi(big(), "POST", LIST_PATH, {
        body: { deploymentId: 1001, options: { optionalLimit: 100 } },
      }).then((a) => a.json)) as ListAnswer;
      const ruleBytes = JSON.stringify(first.notification_rules[50]).length;
      // 5,100 rules into the listing, a page copies its own rules, not the ones before (or after) it.
      let token = first.cursor?.token;
      for (let page = 0; page < 50; page += 1) {
        const next = (await callApi(big(), "POST", LIST_PATH, {
          body: { deploymentId: 1001, options: { optionalLimit: 100, cursor: { token } } },
        }).then((a) => a.json)) as ListAnswer;
        token = next.cursor?.token;
      }
      const pageCopy = await bytesCopiedDuring(() =>
        callApi(big(), "POST", LIST_PATH, {
          body: { deploymentId: 1001, options: { optionalLimit: 50, cursor: { token } } },
        }),
      );
      expect(pageCopy).to.be.below(ruleBytes * 60);
      const write = await bytesCopiedDuring(async () => {
        const answer = await callApi(big(), "PATCH", ROLE_PATH, {
          body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" },
        });
        expect(answer.status).to.equal(200);
      });
      expect(write).to.be.below(5_000);
      const read = await bytesCopiedDuring(() => callApi(big(), "GET", "/api/auth/users/current"));
      expect(read).to.be.below(5_000);
    });
  });
});
