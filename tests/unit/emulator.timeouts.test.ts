/** Connection time limits: defaults, checks and the server options they become (behaviour: emulator.guards). */
import { expect } from "chai";
import { LATENCY_MAX_MS } from "../../emulator/faults";
import { DEFAULT_TIMEOUTS, resolveTimeouts, serverTimeoutOptions } from "../../emulator/timeouts";

describe("emulator connection time limits", () => {
  it("defaults every limit, and keeps a silent connection open longer than the longest latency fault", () => {
    expect(resolveTimeouts()).to.deep.equal(DEFAULT_TIMEOUTS);
    expect(resolveTimeouts({ requestMs: 60_000 })).to.deep.equal({ ...DEFAULT_TIMEOUTS, requestMs: 60_000 });
    expect(DEFAULT_TIMEOUTS.socketIdleMs).to.be.greaterThan(LATENCY_MAX_MS);
  });

  it("refuses a limit that is not a positive whole number of ms, an unknown one, and a head longer than its request", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(() => resolveTimeouts({ keepAliveMs: bad }), String(bad)).to.throw(
        /^timeouts\.keepAliveMs must be a whole number of milliseconds/,
      );
    }
    expect(() => resolveTimeouts({ idleMs: 5 } as never)).to.throw(/timeouts\.idleMs is not a time limit/);
    expect(() => resolveTimeouts({ headersMs: 5000, requestMs: 1000 })).to.throw(
      /headersMs \(5000\) cannot exceed timeouts\.requestMs \(1000\)/,
    );
  });

  it("sets every limit on the server, and checks them often enough for the shortest", () => {
    const options = serverTimeoutOptions({
      headersMs: 200,
      requestMs: 400,
      keepAliveMs: 300,
      socketIdleMs: 900,
    });
    expect(options).to.deep.equal({
      requestTimeout: 400,
      keepAliveTimeout: 300,
      connectionTimeout: 900,
      http: { headersTimeout: 200, connectionsCheckingInterval: 50 },
    });
    expect(serverTimeoutOptions(DEFAULT_TIMEOUTS).http.connectionsCheckingInterval).to.equal(1000);
  });
});
