/** The request log: entries opened on arrival, finished once, kept in arrival order and bounded. */
import { expect } from "chai";
import { REQUEST_LOG_LIMIT, RequestLog } from "../../emulator/requestLog";

const arrival = (n: number) => ({
  method: "GET",
  path: `/p/${n}`,
  operation: null,
  at: "2025-01-01T00:00:00.000Z",
  requestId: `r${n}`,
});

describe("emulator request log", () => {
  it("lists an open entry as pending with status 0, and finishes it in place", () => {
    const log = new RequestLog();
    const first = log.open(arrival(1));
    log.open(arrival(2)).finish({ status: 200, abandoned: false });
    expect(log.list()[0]).to.deep.equal({ ...arrival(1), status: 0, pending: true });
    const finished = first.finish({ status: 200, fault: "stall", abandoned: true });
    expect(finished).to.deep.equal({ ...arrival(1), status: 200, fault: "stall", abandoned: true });
    expect(log.list().map((e) => e.requestId)).to.deep.equal(["r1", "r2"]);
    expect(log.list()[1]).to.deep.equal({ ...arrival(2), status: 200 });
  });

  it("finishes an entry once: a later outcome changes nothing", () => {
    const log = new RequestLog();
    const open = log.open(arrival(1));
    open.finish({ status: 0, fault: "drop", abandoned: false });
    open.finish({ status: 500, abandoned: true });
    expect(log.list()).to.deep.equal([{ ...arrival(1), status: 0, fault: "drop" }]);
  });

  it("a request finished after clear() does not come back", () => {
    const log = new RequestLog();
    const open = log.open(arrival(1));
    log.clear();
    open.finish({ status: 200, abandoned: false });
    expect(log.list()).to.deep.equal([]);
  });

  it("hands out copies and keeps only the most recent entries", () => {
    const log = new RequestLog();
    for (let n = 0; n < REQUEST_LOG_LIMIT + 5; n += 1) log.open(arrival(n));
    const listed = log.list();
    expect(listed).to.have.length(REQUEST_LOG_LIMIT);
    expect(listed[0]?.requestId).to.equal("r5");
    listed[0].status = 999;
    expect(log.list()[0]?.status).to.equal(0);
  });
});
