/**
 * The screenshot of a rendered PR comment that docs/review-and-drift.md shows: `codesec-review`'s summary
 * of a sample pull request, rendered as GitHub renders a comment (GFM: tests/support/gfm.ts) into a page,
 * photographed by headless Chromium. Beside the PNG, the digests of the page it was made from and of the
 * PNG itself: the docs check (`scripts/docs.ts --check`, in lint) compares the first with the page the
 * code renders now and the second with the PNG's bytes, so a changed comment or a replaced picture is
 * told without Chromium.
 *
 *   npm run docs        writes docs/review-comment.png and its source record, when stale (needs Chromium)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseEngineOutput } from "../provider/review/engineOutput";
import { reviewSummary } from "../provider/review/reviewSummary";
import { renderGfm } from "../tests/support/gfm";

export const SCREENSHOT = "docs/review-comment.png";
/** What the screenshot was made from: `{ htmlSha256, pngSha256 }`, the page's digest and the PNG's. */
export const SCREENSHOT_SOURCE = "docs/review-comment.png.source.json";
export const SCREENSHOT_WIDTH = 860;
const REGENERATE = "npm run docs";

const TYPES = {
  UserRole: "pulumi-nodejs:dynamic/codesec:UserRole",
  ScmApp: "pulumi-nodejs:dynamic/codesec:ScmApp",
  WorkflowProvisioning: "pulumi-nodejs:dynamic/codesec:WorkflowProvisioning",
};
const urnOf = (type: string, name: string) => `urn:pulumi:prod::org-config::${type}::${name}`;
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;

function step(
  op: string,
  kind: keyof typeof TYPES,
  name: string,
  old?: object,
  next?: object,
  keys?: string[],
) {
  const type = TYPES[kind];
  return line({
    resourcePreEvent: {
      metadata: {
        op,
        urn: urnOf(type, name),
        type,
        ...(old ? { old: { type, inputs: old } } : {}),
        ...(next ? { new: { type, inputs: next } } : {}),
        ...(keys ? { keys } : {}),
      },
    },
  });
}

/**
 * The sample pull request's event log: a new admin, rita's entry given to another user (her
 * roleOnDestroy demotes her), a temporary user removed without one, the CI workflow's options changed,
 * an SCM app removed, and the policy pack's advisory warning about admins.
 */
export function sampleEventLog(): string {
  const role = (userId: string, role: string, roleOnDestroy?: string) => ({
    deploymentId: "1001",
    userId,
    role,
    ...(roleOnDestroy ? { roleOnDestroy } : {}),
  });
  return [
    line({ policyLoadEvent: {} }),
    step("create", "UserRole", "dana", undefined, role("506", "ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER")),
    step(
      "replace",
      "UserRole",
      "rita",
      role("503", "ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"),
      role("505", "ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"),
      ["userId"],
    ),
    step("delete", "UserRole", "temp", role("504", "ORG_ROLE_READONLY")),
    step(
      "update",
      "WorkflowProvisioning",
      "ci",
      { deploymentId: "1001", filters: { ids: ["7001"] }, ghaOptions: { prEnabled: false } },
      { deploymentId: "1001", filters: { ids: ["7001"] }, ghaOptions: { prEnabled: true } },
    ),
    step("delete", "ScmApp", "gitlab", { deploymentId: "1001", requestId: "apprq-1001-b" }),
    line({
      policyEvent: {
        policyName: "codesec-admin-count",
        policyPackName: "codesec",
        enforcementLevel: "advisory",
        message: "description\ndeployment 1001 would have 3 admins, over the limit of 2",
        resourceUrn: urnOf(TYPES.UserRole, "dana"),
      },
    }),
    line({ summaryEvent: { result: "succeeded", resourceChanges: {} } }),
  ].join("");
}

/** GitHub's look of a comment, near enough for a picture: its fonts, table and code styles. */
const STYLE = `
body { margin: 0; background: #fff; }
.comment { box-sizing: border-box; width: ${SCREENSHOT_WIDTH}px; padding: 16px 24px; color: #1f2328;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
  border: 1px solid #d1d9e0; border-radius: 6px; }
h3 { font-size: 1.25em; margin: 0 0 16px; } h4 { font-size: 1em; margin: 24px 0 16px; }
p, ul, table, details { margin: 0 0 16px; } ul { padding-left: 2em; }
table { border-collapse: collapse; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; } th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
code { font: 85% ui-monospace, "DejaVu Sans Mono", monospace; background: #eff1f3; padding: .2em .4em; border-radius: 6px; }
summary { cursor: pointer; }
`;

/** The page the screenshot shows: the sample's comment, as GitHub renders it. */
export function commentPage(): string {
  const markdown = reviewSummary(parseEngineOutput(sampleEventLog()));
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><title>codesec-review comment</title>',
    `<style>${STYLE}</style></head>`,
    `<body><div class="comment">\n${renderGfm(markdown)}</div></body></html>`,
    "",
  ].join("\n");
}

const digestOf = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

interface ScreenshotSource {
  readonly htmlSha256: string;
  readonly pngSha256: string;
}

function readSource(file: string): Partial<ScreenshotSource> {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ScreenshotSource>;
  } catch {
    return {};
  }
}

/**
 * Why the committed screenshot is not a photograph of `page` (by default the comment the code renders
 * now): the page's digest differs, the PNG is not the one recorded, or either file is missing. For the
 * docs check; undefined when it is current.
 */
export function staleScreenshot(root: string, page: string = commentPage()): string | undefined {
  const png = path.join(root, SCREENSHOT);
  const source = path.join(root, SCREENSHOT_SOURCE);
  if (!fs.existsSync(png) || !fs.existsSync(source)) {
    return `${SCREENSHOT} or ${SCREENSHOT_SOURCE} is missing: run \`${REGENERATE}\` (needs Chromium)`;
  }
  const recorded = readSource(source);
  if (recorded.pngSha256 !== digestOf(fs.readFileSync(png))) {
    return `${SCREENSHOT} is not the picture ${SCREENSHOT_SOURCE} records: run \`${REGENERATE}\` (needs Chromium) to make it again`;
  }
  return recorded.htmlSha256 === digestOf(page)
    ? undefined
    : `${SCREENSHOT} shows an older rendering of the PR comment: run \`${REGENERATE}\` (needs Chromium) to make it again`;
}

/** The Chromium on PATH (Debian's `chromium`, or Google's builds), or an error saying how to install it. */
export function chromiumPath(): string {
  for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
    const found = spawnSync("bash", ["-c", `command -v ${name}`], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  throw new Error(
    "Chromium is not installed: the screenshot of the PR comment needs it. Install it as root " +
      "(`sudo apt-get install -y chromium`, or scripts/install-chromium.sh run as root), then run the test again.",
  );
}

function chromium(args: string[]): string {
  // --no-sandbox: CI runs as root, where Chromium's sandbox does not start.
  return execFileSync(
    chromiumPath(),
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--hide-scrollbars",
      "--force-device-scale-factor=1",
      ...args,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 },
  );
}

/**
 * Photographs `page` into `png`: Chromium lays the page out once to measure its height (a script writes
 * it into the DOM it dumps), then takes a screenshot of exactly that size.
 */
export function photograph(page: string, png: string): { width: number; height: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codesec-screenshot-"));
  try {
    const measure = path.join(dir, "measure.html");
    fs.writeFileSync(
      measure,
      page.replace(
        "</body>",
        '<script>document.body.setAttribute("data-height", String(document.querySelector(".comment").getBoundingClientRect().height));</script></body>',
      ),
    );
    const dom = chromium([`--window-size=${SCREENSHOT_WIDTH},800`, "--dump-dom", `file://${measure}`]);
    const measured = /data-height="([\d.]+)"/.exec(dom);
    if (!measured) throw new Error("Chromium did not lay out the comment's page (no height measured)");
    const size = { width: SCREENSHOT_WIDTH, height: Math.ceil(Number(measured[1])) };
    const shown = path.join(dir, "comment.html");
    fs.writeFileSync(shown, page);
    const shot = path.join(dir, "comment.png");
    chromium([`--window-size=${size.width},${size.height}`, `--screenshot=${shot}`, `file://${shown}`]);
    if (!fs.existsSync(shot)) throw new Error("Chromium wrote no screenshot");
    fs.copyFileSync(shot, png);
    return size;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes the screenshot and its source record under `root` when they are stale, so that `npm run docs`
 * needs Chromium only when the comment renders differently. Returns whether it photographed.
 */
export function writeScreenshot(root: string): boolean {
  const page = commentPage();
  if (staleScreenshot(root, page) === undefined) return false;
  const png = path.join(root, SCREENSHOT);
  photograph(page, png);
  const source: ScreenshotSource = { htmlSha256: digestOf(page), pngSha256: digestOf(fs.readFileSync(png)) };
  fs.writeFileSync(path.join(root, SCREENSHOT_SOURCE), `${JSON.stringify(source, null, 2)}\n`);
  return true;
}

function main(): void {
  // --root DIR: a copy of the repository instead (the tests use it); --check: write nothing, fail when stale.
  const rootArg = process.argv.indexOf("--root");
  const root = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(__dirname, "..");
  if (process.argv.includes("--check")) {
    const stale = staleScreenshot(root);
    if (stale !== undefined) {
      console.error(stale);
      process.exit(1);
    }
    return;
  }
  writeScreenshot(root);
}

if (require.main === module) main();
