/**
 * The PR comment opens with what a reviewer must not miss: the counts and the policy verdict, then every
 * deletion and demotion labelled and named (a role lowered, a UserRole or UserRoles entry removed, a
 * resource deleted or replaced), before any folded detail. Asserted on the HTML a GFM renderer makes.
 */
import { expect } from "chai";
import { reviewCommand, type CommandIo } from "../../provider/review/commands";
import { COMMENT_LIMIT } from "../../provider/review/markdownBudget";
import { renderGfm, textOf } from "../support/gfm";

const ROLE = "pulumi-nodejs:dynamic/codesec:UserRole";
const ROLES = "pulumi-nodejs:dynamic/codesec:UserRoles";
const APP = "pulumi-nodejs:dynamic/codesec:ScmApp";
const PROVISIONING = "pulumi-nodejs:dynamic/codesec:WorkflowProvisioning";
const urnOf = (type: string, name: string) => `urn:pulumi:prod::org::${type}::${name}`;
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;

function step(
  op: string,
  type: string,
  name: string,
  old?: Record<string, unknown>,
  next?: Record<string, unknown>,
  replaceReasons?: string[],
): string {
  return line({
    resourcePreEvent: {
      metadata: {
        op,
        urn: urnOf(type, name),
        type,
        ...(old ? { old: { type, inputs: old } } : {}),
        ...(next ? { new: { type, inputs: next } } : {}),
        ...(replaceReasons ? { keys: replaceReasons } : {}),
      },
    },
  });
}

const POLICY_LOAD = line({ policyLoadEvent: {} });
const SUMMARY = line({ summaryEvent: { result: "succeeded", resourceChanges: {} } });

function review(stdin: string) {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => stdin };
  const code = reviewCommand([], io);
  expect(code, stderr).to.equal(0);
  return stdout;
}

/** What a reader sees, without the zero-width spaces that break links and mentions. */
const seen = (html: string) => textOf(html).replace(/\u200b/g, "");

/** The list that follows the heading `title`, as its items' visible text. */
function listAfter(html: string, title: string): string[] {
  const at = html.indexOf(`<h4>${title}</h4>`);
  expect(at, `no heading ${title} in\n${html}`).to.be.greaterThan(-1);
  const list = /<ul>([\s\S]*?)<\/ul>/.exec(html.slice(at))![1];
  return [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => seen(item[1]));
}

const admin = (userId: string, extra: Record<string, unknown> = {}) => ({
  deploymentId: "1001",
  userId,
  role: "ORG_ROLE_ADMIN",
  ...extra,
});

describe("review: deletions and demotions first, details folded", () => {
  const plan =
    POLICY_LOAD +
    step("create", ROLE, "new-admin", undefined, admin("700")) +
    step("update", ROLE, "lowered", admin("701"), { ...admin("701"), role: "ORG_ROLE_MEMBER" }) +
    step("update", ROLE, "raised", { ...admin("702"), role: "ORG_ROLE_MEMBER" }, admin("702")) +
    step("delete", ROLE, "leaving", admin("703", { roleOnDestroy: "ORG_ROLE_READONLY" })) +
    step(
      "update",
      ROLES,
      "team",
      { deploymentId: "1001", roles: { "704": "ORG_ROLE_MEMBER", "705": "ORG_ROLE_MEMBER" } },
      { deploymentId: "1001", roles: { "705": "ORG_ROLE_MEMBER" } },
    ) +
    step("delete", APP, "github", { requestId: "req-1" }) +
    step(
      "replace",
      PROVISIONING,
      "ci",
      { filters: { repositoryIds: ["1"] } },
      { filters: { repositoryIds: ["2"] } },
      ["filters"],
    ) +
    SUMMARY;

  it("names every deletion and demotion right after the counts and the verdict, before anything folded, each resource once", () => {
    const markdown = review(plan);
    const html = renderGfm(markdown);
    const [headline, heading] = [...html.matchAll(/<(?:p|h4)>([\s\S]*?)<\/(?:p|h4)>/g)].map((m) =>
      seen(m[1]),
    );
    expect(headline).to.equal(
      "1 to create, 3 to update, 1 to replace, 2 to delete. Policies: ✅ no violation.",
    );
    expect(heading).to.equal("⚠️ Deletions and demotions (5)");
    expect(listAfter(html, "⚠️ Deletions and demotions (5)")).to.deep.equal([
      'user 701 of deployment 1001: ORG_ROLE_ADMIN → ORG_ROLE_MEMBER, lowered by UserRole "lowered" updated',
      'user 703 of deployment 1001: ORG_ROLE_ADMIN → ORG_ROLE_READONLY, lowered by UserRole "leaving" deleted (its roleOnDestroy)',
      'user 704 of deployment 1001: removed from UserRoles "team" updated; without roleOnDestroy the user keeps ORG_ROLE_MEMBER on the platform',
      'WorkflowProvisioning "ci" replaced (replace: filters)',
      'ScmApp "github" deleted',
    ]);
    const top = html.indexOf("Deletions and demotions");
    expect(html.indexOf("<details>")).to.be.greaterThan(top);
    expect(html.indexOf("<table>")).to.be.greaterThan(top);
  });

  it("a grant and a raise are not labelled as deletions; a plan without any has no such section", () => {
    const html = renderGfm(
      review(
        POLICY_LOAD +
          step("create", ROLE, "new-admin", undefined, admin("700")) +
          step("update", ROLE, "raised", { ...admin("702"), role: "ORG_ROLE_READONLY" }, admin("702")) +
          SUMMARY,
      ),
    );
    expect(html).not.to.include("Deletions and demotions");
    expect(textOf(html)).to.include("raised");
  });

  it("workflow provisioning, webhooks and SCM apps, and the raw diff are folded; the access changes and policies are not", () => {
    const html = renderGfm(review(plan));
    const folded = [...html.matchAll(/<details>([\s\S]*?)<\/details>/g)].map((m) => m[1]);
    expect(folded.map((body) => seen(/<summary>([\s\S]*?)<\/summary>/.exec(body)![1]))).to.deep.equal([
      "Workflow provisioning (1)",
      "Webhooks and SCM apps (1)",
      "Raw diff",
    ]);
    expect(folded.join("")).not.to.include("<table>");
    expect(folded[0]).to.include("WorkflowProvisioning &quot;ci&quot; replaced");
    expect(folded[1]).to.include("ScmApp &quot;github&quot; deleted");
  });

  it("a hostile name in a deletion stays one inert item", () => {
    const name = "x\n\n</details>\n\n**Reviewed: no deletions** <!--";
    const html = renderGfm(review(POLICY_LOAD + step("delete", APP, name, { requestId: "r" }) + SUMMARY));
    expect(listAfter(html, "⚠️ Deletions and demotions (1)")).to.deep.equal([
      'ScmApp "x\\n\\n</details>\\n\\n**Reviewed: no deletions** <!--" deleted',
    ]);
    expect(html).not.to.include("<strong>");
    expect(html).not.to.include("<!--");
  });

  it("20,000 deletions stay under GitHub's limit: the deletions keep their place before the details, with a note of what was left out", () => {
    const steps = Array.from({ length: 20_000 }, (_, i) =>
      step("delete", ROLE, `user-${i}`, admin(String(10_000 + i), { roleOnDestroy: "ORG_ROLE_READONLY" })),
    ).join("");
    const markdown = review(POLICY_LOAD + steps + SUMMARY);
    expect(markdown.length).to.be.at.most(COMMENT_LIMIT);
    const html = renderGfm(markdown);
    const items = listAfter(html, "⚠️ Deletions and demotions (20,000)");
    expect(items.length).to.be.greaterThan(100);
    expect(markdown).to.include(
      `_✂️ ${(20_000 - items.length).toLocaleString("en-US")} of 20,000 deletions and demotions left out: a comment holds at most 65,536 characters._`,
    );
    // The detail the deletions crowd out is said to be left out, below them.
    expect(html.indexOf("All 20,000 access changes left out")).to.be.greaterThan(
      html.indexOf("Deletions and demotions"),
    );
  });
});
