/**
 * The bench's bare HTTP loops (bench/support/bareLoop.ts): the free loop sends exactly the requests asked
 * for, each numbered once; the paced loop starts the n-th request no earlier than n / rate after the
 * first and never has more than its limit in flight. Counted at a local server.
 */
import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { bareLoop, pacedLoop, type BareRequest } from "../../bench/support/bareLoop";

describe("bench: bare loops", () => {
  let server: http.Server;
  let arrivals: { n: number; at: number }[];
  let inFlight: number;
  let mostInFlight: number;
  let request: BareRequest;

  beforeEach(async () => {
    arrivals = [];
    inFlight = 0;
    mostInFlight = 0;
    server = http.createServer((req, res) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      arrivals.push({ n: Number(req.url!.split("/").pop()), at: performance.now() });
      setTimeout(() => {
        inFlight -= 1;
        res.end("{}");
      }, 5);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    request = {
      baseUrl: `http://127.0.0.1:${port}`,
      token: "t",
      method: "GET",
      path: "/",
      vary: (n) => ({ path: `/r/${n}` }),
    };
  });

  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("the free loop sends exactly the requests asked for, each number once, at most its concurrency at once", async () => {
    const result = await bareLoop(request, 4, { requests: 30 });
    expect(result.requests).to.equal(30);
    expect(result.statuses).to.deep.equal({ "200": 30 });
    expect(arrivals.map((a) => a.n).sort((a, b) => a - b)).to.deep.equal([...Array(30).keys()]);
    expect(mostInFlight).to.be.at.most(4);
  });

  it("the paced loop starts the n-th request no earlier than n / rate after the first, at most inFlight at once", async () => {
    const before = performance.now(); // the loop's start is no earlier
    const result = await pacedLoop(request, { perSecond: 200, inFlight: 3 }, 20);
    expect(result.requests).to.equal(20);
    expect(result.statuses).to.deep.equal({ "200": 20 });
    for (const { n, at } of arrivals) expect(at - before, `request ${n}`).to.be.at.least((n * 1000) / 200);
    expect(mostInFlight).to.be.at.most(3);
  });

  it("sends a request once more when the server closed its reused keep-alive socket, and only once", async () => {
    // A server that closes the connection on the second request it reads on one socket, without answering
    // (what the emulator's idle keep-alive timeout does when it fires as a request goes out), and, up to
    // `dropsPerRequest` times, on that request's later arrivals too (a fresh socket then: not resent).
    const drops = async (dropsPerRequest: number) => {
      const seenOn = new WeakMap<object, number>();
      const dropped = new Map<string, number>();
      const closing = http.createServer((req, res) => {
        const count = (seenOn.get(req.socket) ?? 0) + 1;
        seenOn.set(req.socket, count);
        const times = dropped.get(req.url!) ?? 0;
        if ((count === 2 || times > 0) && times < dropsPerRequest) {
          dropped.set(req.url!, times + 1);
          req.socket.destroy();
          return;
        }
        res.end("{}");
      });
      await new Promise<void>((resolve) => closing.listen(0, "127.0.0.1", resolve));
      const { port } = closing.address() as AddressInfo;
      try {
        return await bareLoop({ ...request, baseUrl: `http://127.0.0.1:${port}` }, 1, { requests: 3 });
      } finally {
        closing.closeAllConnections();
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
    };
    const once = await drops(1); // the request that went out on a closing socket arrives once more
    expect(once.requests).to.equal(3);
    expect(once.statuses).to.deep.equal({ "200": 3 });
    let error: NodeJS.ErrnoException | undefined;
    await drops(Infinity).catch((e: NodeJS.ErrnoException) => (error = e));
    expect(error?.code, "a request dropped on a fresh socket is not resent").to.equal("ECONNRESET");
  });
});
