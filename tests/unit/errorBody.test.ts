/**
 * Reading a failed request's body: an HTML error page of megabytes, built to make a backtracking scan
 * quadratic, is read in time linear in its size.
 */
import { expect } from "chai";
import { parseErrorBody } from "../../client/errorBody";

describe("parseErrorBody: HTML pages", () => {
  it("keeps the text of an HTML page and drops its markup, scripts and styles", () => {
    const page =
      "<html><head><title>502 Bad Gateway</title><style>p { color: red }</style>" +
      "<script type=x>var a = '</p>';</script></head><body><h1>Bad</h1> <p>Gateway</p></body></html>";
    expect(parseErrorBody(page).message).to.equal("502 Bad Gateway Bad Gateway");
  });

  it("drops an unclosed script to the end, and keeps a lone < with no tag end", () => {
    expect(parseErrorBody("<html><p>down</p><script>var x").message).to.equal("down");
    expect(parseErrorBody("<html><p>1 < 2").message).to.equal("1 < 2");
  });

  // A backtracking scan takes minutes on these (quadratic in the size); the test timeout is 20 seconds.
  for (const [what, body] of [
    ["unclosed script tags", `<html>${"<script".repeat(250_000)}`],
    ["unclosed style tags", `<html>${"<style ".repeat(250_000)}`],
    ["tag openings with no end", `<html>${"<".repeat(2_000_000)}`],
  ]) {
    it(`reads a page of 2 MB of ${what} in linear time`, () => {
      expect(parseErrorBody(body).message).to.be.a("string");
    });
  }
});
