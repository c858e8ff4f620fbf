/** Which setting bounds a call: the step's customTimeouts, codesec:deadlineMs, or the client's default. */
import { expect } from "chai";
import { deadlineOf } from "../../provider/providerContext";
import { DEFAULT_DEADLINE_MS } from "../../client/client";

describe("a call's deadline and its source", () => {
  it("customTimeouts decide whenever codesec:deadlineMs is unset, even over the 30 s default", () => {
    expect(deadlineOf(31_000, undefined)).to.deep.equal({ deadlineMs: 31_000, source: "customTimeouts" });
    expect(deadlineOf(1_000, undefined)).to.deep.equal({ deadlineMs: 1_000, source: "customTimeouts" });
  });

  it("customTimeouts decide when shorter than codesec:deadlineMs, else codesec:deadlineMs does", () => {
    expect(deadlineOf(5_000, 10_000)).to.deep.equal({ deadlineMs: 5_000, source: "customTimeouts" });
    expect(deadlineOf(60_000, 10_000)).to.deep.equal({ deadlineMs: 10_000, source: "codesec:deadlineMs" });
    expect(deadlineOf(undefined, 10_000)).to.deep.equal({ deadlineMs: 10_000, source: "codesec:deadlineMs" });
  });

  it("with neither, the client's default", () => {
    expect(deadlineOf(undefined, undefined)).to.deep.equal({
      deadlineMs: DEFAULT_DEADLINE_MS,
      source: "default",
    });
  });
});
