/**
 * A bench run's results keep the measured sources' digest only while the sources are those it started on:
 * checked before each save, so results saved after a change already carry none.
 */
import { expect } from "chai";
import { sourcesGuard } from "../../bench/support/sourcesGuard";

describe("bench: the measured sources, re-checked before each save", () => {
  const A = `sha256:${"a".repeat(64)}`;
  const B = `sha256:${"b".repeat(64)}`;

  it("keeps the start's digest while the sources are unchanged", () => {
    const guard = sourcesGuard(() => A);
    expect([guard.check(), guard.check(), guard.changed]).to.deep.equal([A, A, false]);
  });

  it("drops the digest at the first save after a change, and for good even when the sources come back", () => {
    const now = [A, A, B, A];
    const guard = sourcesGuard(() => now.shift()!);
    expect(guard.check()).to.equal(A);
    expect(guard.check()).to.equal(undefined);
    expect(guard.changed).to.equal(true);
    expect(guard.check()).to.equal(undefined);
  });
});
