/**
 * The emulator's optional rate limit (`startEmulator({ rateLimit })`, `--rate-limit`), over plain HTTP with
 * no client library: a burst of one credential gets exactly one second's worth of answers, the rest 429.
 */
import { expect } from "chai";
import { Agent } from "node:http";
import type { EmulatorHandle } from "../../emulator/index";
import { callApi, errorOf, useEmulator } from "../support/emulator";
import { apiHeaders, rawRequest, type RawExchange } from "../support/rawHttp";

/**
 * Small, so that a bucket refills slowly (one token per 500 ms): a burst sent at once then meets an empty
 * bucket even on a busy machine. Nothing here measures time.
 */
const LIMIT = 2;
const SCAN_PATH = "/api/v2/deployments/1001/scans/3001";
const MEMBER_TOKEN = "cst_1001_member_4c0b9e7d2a5f1386";

/**
 * Sends `count` requests at once, each on a connection opened beforehand (through the control surface,
 * which the limit does not count), so that the burst reaches the emulator together.
 */
async function burst(emulator: EmulatorHandle, count: number, credential = emulator.apiToken) {
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  try {
    await Promise.all(
      Array.from({ length: count }, () => rawRequest(emulator.baseUrl, "GET", "/__emulator/", { agent })),
    );
    return await Promise.all(
      Array.from({ length: count }, () =>
        rawRequest(emulator.baseUrl, "GET", SCAN_PATH, { agent, headers: apiHeaders(credential) }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

function statuses(exchanges: RawExchange[]): number[] {
  return exchanges.map((e) => e.status ?? 0).sort();
}

function retryAfterOf(exchange: RawExchange): number {
  return Number(exchange.headers["retry-after"]);
}

describe("emulator rate limit", () => {
  describe(`startEmulator({ rateLimit: ${LIMIT} })`, () => {
    const emulator = useEmulator({ rateLimit: LIMIT });

    it("admits exactly the limit of a burst of twice the limit; the rest get 429, Retry-After >= 1 and the error body", async () => {
      const answers = await burst(emulator(), 2 * LIMIT);
      expect(statuses(answers)).to.deep.equal([
        ...Array<number>(LIMIT).fill(200),
        ...Array<number>(LIMIT).fill(429),
      ]);
      for (const refused of answers.filter((a) => a.status === 429)) {
        expect(refused.headers["retry-after"]).to.match(/^\d+$/);
        expect(retryAfterOf(refused)).to.be.at.least(1);
        const body = JSON.parse(refused.body.toString("utf8")) as {
          error: { code: string; message: string; requestId: string };
        };
        expect(body.error.code).to.equal("RESOURCE_EXHAUSTED");
        expect(body.error.message).to.include(`${LIMIT} requests per second`);
        expect(body.error.requestId).to.equal(refused.headers["x-request-id"]);
        expect(refused.body.toString("utf8")).not.to.include(emulator().apiToken);
      }
      // The request log and the counters record the refusals like any other answer.
      const log = emulator().control.requests();
      expect(log.filter((e) => e.status === 429 && e.operation === "getScan")).to.have.length(LIMIT);
      expect(emulator().control.requestCounts().byStatus).to.deep.equal({ "200": LIMIT, "429": LIMIT });
    });

    it("admits requests again once the Retry-After has passed", async () => {
      const answers = await burst(emulator(), 2 * LIMIT);
      const wait = Math.max(...answers.filter((a) => a.status === 429).map(retryAfterOf));
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      expect((await callApi(emulator(), "GET", SCAN_PATH)).status).to.equal(200);
    });

    it("keeps one bucket per credential: another credential is not refused", async () => {
      const answers = await burst(emulator(), 2 * LIMIT);
      expect(answers.some((a) => a.status === 429)).to.equal(true);
      const other = await callApi(emulator(), "GET", "/api/auth/users/current", { credential: MEMBER_TOKEN });
      expect(other.status).to.equal(200);
    });

    it("does not count the control surface", async () => {
      for (let i = 0; i < 4 * LIMIT; i += 1) {
        expect(
          (await callApi(emulator(), "GET", "/__emulator/faults", { credential: null })).status,
        ).to.equal(200);
      }
      expect(statuses(await burst(emulator(), LIMIT))).to.deep.equal(Array<number>(LIMIT).fill(200));
    });

    it("reset() fills the buckets again", async () => {
      await burst(emulator(), 2 * LIMIT);
      emulator().control.reset();
      expect(statuses(await burst(emulator(), LIMIT))).to.deep.equal(Array<number>(LIMIT).fill(200));
    });
  });

  describe("startEmulator({ rateLimit: 1 })", () => {
    // One token a second: the requests after the first meet an empty bucket for a whole second.
    const emulator = useEmulator({ rateLimit: 1 });

    it("a refused request changes nothing and is refused before authentication and validation", async () => {
      expect((await callApi(emulator(), "GET", SCAN_PATH)).status).to.equal(200);
      const write = await callApi(emulator(), "PATCH", "/api/agent/deployments/1001/users/502/roles", {
        body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" },
      });
      expect(write.status).to.equal(429);
      expect(errorOf(write).code).to.equal("RESOURCE_EXHAUSTED");
      expect(errorOf(write).message).to.include("1 request per second");
      expect(
        emulator()
          .control.state()
          .users.find((u) => u.id === "502")?.roles["1001"],
      ).to.equal("ORG_ROLE_MEMBER");
      const invalid = await callApi(emulator(), "PATCH", "/api/agent/deployments/1001/users/502/roles", {
        body: { newRole: "NOT_A_ROLE" },
      });
      expect(invalid.status).to.equal(429);
    });
  });

  describe("by default", () => {
    const emulator = useEmulator();

    it("has no limit: a burst of many requests is answered 200 throughout", async () => {
      expect(statuses(await burst(emulator(), 8 * LIMIT))).to.deep.equal(Array<number>(8 * LIMIT).fill(200));
    });
  });

  it("startEmulator refuses a rate limit that is not a positive number", async () => {
    const { startEmulator } = await import("../../emulator/index");
    let failure: unknown;
    try {
      const handle = await startEmulator({ quiet: true, rateLimit: 0 });
      await handle.close();
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.match(/rateLimit must be a positive number of requests per second/);
  });
});
