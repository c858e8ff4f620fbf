/** scripts/terminalColor.ts: the demo's headings are coloured on a terminal only, and never under NO_COLOR. */
import { expect } from "chai";
import { bold, useColor } from "../../scripts/terminalColor";

describe("scripts/terminalColor", () => {
  it("colours a terminal, not a pipe or a file", () => {
    expect(useColor({ isTTY: true }, {})).to.equal(true);
    expect(useColor({ isTTY: false }, {})).to.equal(false);
    expect(useColor({}, {})).to.equal(false);
  });

  it("honours NO_COLOR set to anything but the empty string", () => {
    expect(useColor({ isTTY: true }, { NO_COLOR: "1" })).to.equal(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: "anything" })).to.equal(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: "" })).to.equal(true);
  });

  it("adds escape codes only when colouring", () => {
    expect(bold("== Summary", false)).to.equal("== Summary");
    expect(bold("== Summary", true)).to.equal("\x1b[1m== Summary\x1b[0m");
  });
});
