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

  const top = (plan: string) =>
    listAfter(renderGfm(review(POLICY_LOAD + plan + SUMMARY)), "⚠️ Deletions and demotions (1)");
  const roles = (deploymentRoles: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    deploymentId: "1001",
    roles: deploymentRoles,
    ...extra,
  });

  it("a role lowered across two UserRoles is named with the role the user ends with", () => {
    const moved = (aExtra: Record<string, unknown>) =>
      step("update", ROLES, "a", roles({ "900": "ORG_ROLE_ADMIN" }, aExtra), roles({}, aExtra)) +
      step("update", ROLES, "b", roles({}), roles({ "900": "ORG_ROLE_READONLY" }));
    const lowered =
      'user 900 of deployment 1001: ORG_ROLE_ADMIN → ORG_ROLE_READONLY, lowered by UserRoles "a" updated, UserRoles "b" updated';
    expect(top(moved({ roleOnDestroy: "ORG_ROLE_MEMBER" }))).to.deep.equal([lowered]);
    expect(top(moved({}))).to.deep.equal([lowered]);
  });

  it("a UserRole deleted and another created for the same user with a lower role is a role lowered", () => {
    const items = top(
      step("delete", ROLE, "old", admin("900")) +
        step("create", ROLE, "new", undefined, admin("900", { role: "ORG_ROLE_READONLY" })),
    );
    expect(items).to.deep.equal([
      'user 900 of deployment 1001: ORG_ROLE_ADMIN → ORG_ROLE_READONLY, lowered by UserRole "new" created, UserRole "old" deleted',
    ]);
  });

  it("a roleOnDestroy that raises the user is listed as raised, and one equal to the role is no change", () => {
    expect(
      top(
        step(
          "delete",
          ROLE,
          "up",
          admin("900", { role: "ORG_ROLE_READONLY", roleOnDestroy: "ORG_ROLE_MEMBER" }),
        ),
      ),
    ).to.deep.equal([
      'user 900 of deployment 1001: ORG_ROLE_READONLY → ORG_ROLE_MEMBER, raised by UserRole "up" deleted (its roleOnDestroy)',
    ]);
    expect(
      top(
        step(
          "delete",
          ROLE,
          "same",
          admin("900", { role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_MEMBER" }),
        ),
      ),
    ).to.deep.equal(['UserRole "same" deleted']);
  });

  it("a move between roles whose rights do not nest is a change, not a lowering", () => {
    const html = renderGfm(
      review(
        POLICY_LOAD +
          step("update", ROLE, "side", admin("900"), admin("900", { role: "ORG_ROLE_IMPERSONATOR" })) +
          SUMMARY,
      ),
    );
    expect(listAfter(html, "⚠️ Deletions and demotions (1)")).to.deep.equal([
      'user 900 of deployment 1001: changed from ORG_ROLE_ADMIN to ORG_ROLE_IMPERSONATOR by UserRole "side" updated',
    ]);
    expect(seen(html)).not.to.include("lowered");
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

  const mandatory = (name: string) =>
    line({
      policyEvent: {
        policyName: "codesec-scm-app-kept",
        policyPackName: "codesec",
        enforcementLevel: "mandatory",
        message: "the production SCM app must stay",
        resourceUrn: urnOf(APP, name),
      },
    });

  it("a UserRoles of 3,000 entries deleted is one line that counts them, and a mandatory violation stays", () => {
    const team = Object.fromEntries(
      Array.from({ length: 3_000 }, (_, i) => [String(20_000 + i), "ORG_ROLE_MEMBER"]),
    );
    const markdown = review(
      POLICY_LOAD +
        step("delete", ROLES, "team", roles(team)) +
        step("delete", APP, "prod-github", { requestId: "req-1" }) +
        mandatory("prod-github") +
        SUMMARY,
    );
    const html = renderGfm(markdown);
    expect(listAfter(html, "⚠️ Deletions and demotions (2)")).to.deep.equal([
      'UserRoles "team" deleted: 3,000 entries removed; without roleOnDestroy the users keep their roles on the platform',
      'ScmApp "prod-github" deleted',
    ]);
    expect(listAfter(html, "Policy violations")).to.deep.equal([
      '❌ mandatory codesec-scm-app-kept (ScmApp "prod-github"): the production SCM app must stay',
    ]);
    expect(markdown).not.to.include("policy violations left out");
  });

  it("20,000 deletions do not push a policy violation out of the comment", () => {
    const steps = Array.from({ length: 20_000 }, (_, i) =>
      step("delete", ROLE, `user-${i}`, admin(String(10_000 + i), { roleOnDestroy: "ORG_ROLE_READONLY" })),
    ).join("");
    const markdown = review(
      POLICY_LOAD +
        steps +
        step("delete", APP, "prod-github", { requestId: "r" }) +
        mandatory("prod-github") +
        SUMMARY,
    );
    expect(markdown.length).to.be.at.most(COMMENT_LIMIT);
    const html = renderGfm(markdown);
    expect(listAfter(html, "Policy violations")).to.have.length(1);
    expect(markdown).not.to.include("policy violations left out");
    expect(listAfter(html, "⚠️ Deletions and demotions (20,001)").length).to.be.greaterThan(100);
    expect(markdown).to.match(/_✂️ [\d,]+ of 20,001 deletions and demotions left out/);
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
