/**
 * The install bench runs its two sides in turn first (bench/installs.ts): they share Go's build cache,
 * so a fixed order would always give the build to the same side.
 */
import { expect } from "chai";
import { sidesInOrder } from "../../bench/installs";

describe("the install bench's order of sides", () => {
  it("runs the registries' side first in odd repetitions and the clone's first in even ones", () => {
    expect([1, 2, 3, 4].map((rep) => sidesInOrder(rep, "registries", "clone")[0])).to.deep.equal([
      "registries",
      "clone",
      "registries",
      "clone",
    ]);
    expect(sidesInOrder(2, "registries", "clone")).to.deep.equal(["clone", "registries"]);
  });
});
