/** The bench's line for the by-value provider the engine cannot store reads as the intended n/a it is. */
import { expect } from "chai";
import { byValueNotStored } from "../../bench/support/byValue";

describe("bench: the by-value provider that cannot be stored", () => {
  const reason =
    "function 'sendHttpAttempt': http.js(69,24): Unexpected missing variable in closure environment: timer";

  it("says it is an intended n/a and what it means, before the serializer's words", () => {
    for (const text of Object.values(byValueNotStored(reason))) {
      expect(text).to.match(/n\/a, as intended/);
      expect(text).to.include("stores a stub that loads it by package name");
      expect(text.indexOf("n/a")).to.be.lessThan(text.indexOf(reason));
      expect(text).to.not.match(/could not be stored/);
    }
  });
});
