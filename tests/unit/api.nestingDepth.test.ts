/**
 * The bound on nesting (api/nestingDepth.ts): the first object or array deeper than the limit, found
 * without recursion, so values nested far deeper than the call stack allows (which make recursive walks
 * such as JSON.stringify throw a RangeError) get a message naming the path instead.
 */
import { expect } from "chai";
import { MAX_NESTING_DEPTH, issueMessage, nestingIssue } from "../../api";
import { nestedArrays, nestedObjects } from "../support/deepValues";

describe("API: nesting depth bound", () => {
  it("is well above any real input: 64 levels", () => {
    expect(MAX_NESTING_DEPTH).to.equal(64);
  });

  it("accepts scalars and values up to the limit, however wide", () => {
    for (const value of [undefined, null, 0, "x", true]) expect(nestingIssue(value)).to.equal(undefined);
    expect(nestingIssue(nestedArrays(64))).to.equal(undefined);
    expect(nestingIssue(nestedObjects(64))).to.equal(undefined);
    const wide = { rows: Array.from({ length: 10_000 }, (_, i) => ({ id: i, tags: [String(i)] })) };
    expect(nestingIssue(wide)).to.equal(undefined);
  });

  it("names the first container past the limit, by its path", () => {
    const arrays = nestingIssue(nestedArrays(65));
    expect(arrays).to.include({ kind: "tooDeep", path: "[0]".repeat(64), depth: 65 });
    const objects = nestingIssue({ deploymentId: "42", filters: nestedObjects(64) });
    expect(objects).to.include({ kind: "tooDeep", path: `filters${".a".repeat(63)}`, depth: 65 });
    const mixed = nestingIssue({ ok: [[1]], deep: [nestedObjects(70, "k")] }, 4);
    expect(mixed?.path).to.equal("deep[0].k.k");
  });

  it("words it like every other schema issue: the path, what is allowed, what was found", () => {
    const issue = nestingIssue({ filters: { ids: nestedArrays(100) } })!;
    const message = issueMessage(issue, { name: "provisionWorkflows", noun: "argument" });
    expect(message).to.equal(
      `filters.ids${"[0]".repeat(62)} must be within 64 levels of nested objects and arrays, got an array at level 65`,
    );
  });

  it("walks 100,000 levels of arrays and of objects without recursion", () => {
    for (const value of [nestedArrays(100_000), nestedObjects(100_000)]) {
      expect(() => JSON.stringify(value)).to.throw(RangeError);
      expect(nestingIssue(value)).to.include({ kind: "tooDeep", depth: 65 });
    }
  });

  it("ends on a value that contains itself, and on one that shares parts exponentially", () => {
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = cycle;
    expect(nestingIssue(cycle)?.path).to.equal("self".concat(".self".repeat(63)));
    // 2^64 paths through 64 shared levels: each part is walked once per level it is seen at, not per path.
    let shared: unknown = "leaf";
    for (let i = 0; i < 64; i++) shared = [shared, shared];
    expect(nestingIssue(shared)).to.equal(undefined);
    expect(nestingIssue([shared])).to.include({ kind: "tooDeep", depth: 65 });
  });
});
