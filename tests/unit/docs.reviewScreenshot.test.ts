/**
 * docs/review-and-drift.md shows a screenshot of the rendered PR comment: headless Chromium photographs
 * `codesec-review`'s summary of a sample pull request as GFM renders it (scripts/reviewScreenshot.ts). The
 * picture is a real image of the comment, and the docs check (lint, without Chromium) fails once the
 * comment renders differently or the PNG is not the one recorded, naming the command that makes the
 * screenshot again. Needs Chromium: the set-up installs it as root (scripts/install-chromium.sh); without
 * it the test fails, saying so.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  chromiumPath,
  commentPage,
  photograph,
  SCREENSHOT,
  SCREENSHOT_SOURCE,
  SCREENSHOT_WIDTH,
  staleScreenshot,
  writeScreenshot,
} from "../../scripts/reviewScreenshot";
import { readPng, type Picture } from "../support/png";

const root = path.resolve(__dirname, "../..");

/** How much of the picture is ink (dark: text, borders) and how far down it reaches. */
function ink(picture: Picture): { share: number; rowsWithInk: number } {
  let dark = 0;
  let rowsWithInk = 0;
  for (let y = 0; y < picture.height; y++) {
    let row = 0;
    for (let x = 0; x < picture.width; x++) if (picture.brightness(x, y) < 128) row++;
    dark += row;
    if (row > 0) rowsWithInk++;
  }
  return { share: dark / (picture.width * picture.height), rowsWithInk };
}

/**
 * The share of pixels whose brightness differs by more than a quarter of the range: 0 for the same
 * rendering. Fonts differ a little between machines (hinting, a fallback font), so the photograph made
 * here is compared with the committed one by size and this share, not byte for byte.
 */
function differingShare(a: Picture, b: Picture): number {
  expect([a.width, a.height], "the same size").to.deep.equal([b.width, b.height]);
  let differing = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) if (Math.abs(a.brightness(x, y) - b.brightness(x, y)) > 64) differing++;
  }
  return differing / (a.width * a.height);
}

/** A picture of text on a light page: some ink, on many rows, but mostly background. */
function expectComment(picture: Picture): void {
  expect(picture.width).to.equal(SCREENSHOT_WIDTH);
  expect(picture.height).to.be.within(300, 3000);
  const { share, rowsWithInk } = ink(picture);
  expect(share, "share of dark pixels").to.be.within(0.005, 0.3);
  expect(rowsWithInk / picture.height, "share of rows with text").to.be.greaterThan(0.3);
  expect(picture.brightness(2, 2), "a light background").to.be.greaterThan(200);
}

describe("docs: the screenshot of the rendered PR comment", function () {
  this.timeout(120_000);

  it("the page holds the comment's rendering: counts and verdict, deletions and demotions, folded details", () => {
    const page = commentPage();
    expect(page).to.include("<h4>⚠️ Deletions and demotions (3)</h4>");
    expect(page).to.include("Policies: ⚠️ 1 advisory violation(s).");
    expect(page).to.include("<details><summary>Raw diff</summary>");
    expect(page).not.to.include("pulumi-nodejs:dynamic");
  });

  it("Chromium photographs the page: an image of its width and measured height, showing text", () => {
    // Fails, saying how to install it, when Chromium is missing: never skipped.
    chromiumPath();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-screenshot-test-"));
    try {
      const png = path.join(dir, "comment.png");
      const size = photograph(commentPage(), png);
      const picture = readPng(fs.readFileSync(png));
      expect([picture.width, picture.height]).to.deep.equal([size.width, size.height]);
      expectComment(picture);
      // A blank page of the same size is no comment.
      const blank = path.join(dir, "blank.png");
      photograph(
        commentPage().replace(/<div class="comment">[\s\S]*<\/div>/, '<div class="comment"></div>'),
        blank,
      );
      expect(ink(readPng(fs.readFileSync(blank))).share).to.be.lessThan(0.005);
      // The committed screenshot shows what Chromium shows of the page now.
      const committed = readPng(fs.readFileSync(path.join(root, SCREENSHOT)));
      expect(
        differingShare(picture, committed),
        "pixels that differ from the committed screenshot",
      ).to.be.lessThan(0.01);
      expect(ink(picture).share - ink(readPng(fs.readFileSync(blank))).share).to.be.greaterThan(0.005);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the committed screenshot is such an image, made from the page the code renders now", () => {
    expectComment(readPng(fs.readFileSync(path.join(root, SCREENSHOT))));
    expect(staleScreenshot(root)).to.equal(undefined);
  });

  it("the docs check fails once the comment renders differently, naming the command that makes it again", () => {
    const changed = commentPage().replace("Deletions and demotions", "Deletions");
    expect(staleScreenshot(root, changed)).to.equal(
      `${SCREENSHOT} shows an older rendering of the PR comment: run \`npm run docs\` (needs Chromium) to make it again`,
    );
    // Through lint's command, on a copy whose digest is of another page, without Chromium on PATH.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-docs-copy-"));
    try {
      fs.mkdirSync(path.join(copy, "docs"));
      fs.copyFileSync(path.join(root, SCREENSHOT), path.join(copy, SCREENSHOT));
      fs.copyFileSync(path.join(root, SCREENSHOT_SOURCE), path.join(copy, SCREENSHOT_SOURCE));
      const source = JSON.parse(fs.readFileSync(path.join(root, SCREENSHOT_SOURCE), "utf8")) as object;
      fs.writeFileSync(
        path.join(copy, SCREENSHOT_SOURCE),
        JSON.stringify({ ...source, htmlSha256: "0".repeat(64) }),
      );
      const check = spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", "scripts/reviewScreenshot.ts", "--check", "--root", copy],
        { cwd: root, encoding: "utf8", env: { ...process.env, PATH: path.dirname(process.execPath) } },
      );
      expect([check.status, check.stderr.trim()]).to.deep.equal([
        1,
        `${SCREENSHOT} shows an older rendering of the PR comment: run \`npm run docs\` (needs Chromium) to make it again`,
      ]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("npm run docs photographs only a stale screenshot: a current one is left as it is, without Chromium", () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-docs-copy-"));
    const pathBefore = process.env.PATH;
    try {
      fs.mkdirSync(path.join(copy, "docs"));
      for (const file of [SCREENSHOT, SCREENSHOT_SOURCE])
        fs.copyFileSync(path.join(root, file), path.join(copy, file));
      process.env.PATH = path.dirname(process.execPath);
      expect(writeScreenshot(copy)).to.equal(false);
      fs.writeFileSync(path.join(copy, SCREENSHOT), "not a png");
      expect(() => writeScreenshot(copy)).to.throw(/Chromium is not installed/);
    } finally {
      process.env.PATH = pathBefore;
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("the docs check fails when the PNG is not the picture recorded, though the page is current", () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-docs-copy-"));
    try {
      fs.mkdirSync(path.join(copy, "docs"));
      fs.copyFileSync(path.join(root, SCREENSHOT_SOURCE), path.join(copy, SCREENSHOT_SOURCE));
      fs.writeFileSync(path.join(copy, SCREENSHOT), "not a png");
      const check = spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", "scripts/reviewScreenshot.ts", "--check", "--root", copy],
        { cwd: root, encoding: "utf8", env: { ...process.env, PATH: path.dirname(process.execPath) } },
      );
      expect([check.status, check.stderr.trim()]).to.deep.equal([
        1,
        `${SCREENSHOT} is not the picture ${SCREENSHOT_SOURCE} records: run \`npm run docs\` (needs Chromium) to make it again`,
      ]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
