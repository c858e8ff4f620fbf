/**
 * What `codesec-drift` says it cannot see: kinds with no read operation, and UserRoles, which the platform
 * reads back only for the token owner's own user (the event log does not say whose token it is).
 */
import { expect } from "chai";
import { driftMarkdown, driftReport } from "../../provider/review/driftReport";
import type { EngineOutput, Step } from "../../provider/review/engineOutput";

const urn = (kind: string, name: string) => `urn:pulumi:prod::org::codesec:index:${kind}::${name}`;

function read(kind: string, name: string, inputs: Record<string, unknown>): Step {
  const state = { type: `codesec:index:${kind}`, inputs, outputs: inputs };
  return { op: "refresh", urn: urn(kind, name), old: state, new: state, replaceReasons: [] };
}

function refreshOf(steps: Step[], refreshed: Step[] = []): EngineOutput {
  return { steps, refreshed, violations: [], policiesKnown: true, errors: [], result: "succeeded" };
}

const ME = { deploymentId: "1001", userId: "501", role: "ORG_ROLE_ADMIN" };
const MAX = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };
const STEPS = [
  read("UserRole", "me", ME),
  read("UserRole", "max", MAX),
  read("ScmWebhookSubscription", "hooks", { deploymentId: "1001", configId: "scmcfg-1001-a" }),
];

describe("review: what the drift check cannot see", () => {
  it("a clean refresh does not call the UserRoles invisible: they are seen when they are the token owner's", () => {
    const report = driftReport(refreshOf(STEPS));
    expect(report.unseen.map((r) => [r.name, r.visibility])).to.deep.equal([
      ["hooks", "none"],
      ["max", "ownRoleOnly"],
      ["me", "ownRoleOnly"],
    ]);
    expect(driftMarkdown(report)).to.equal(
      "✅ No drift in stack `prod`: the platform matches the state of every resource it can read back " +
        "(1 it cannot, 2 UserRole(s) only when the token owner's own: docs/drift.md).\n",
    );
  });

  it("lists the token owner's UserRole that drifted as drift only, and no UserRole as not visible", () => {
    const changed: Step = {
      op: "update",
      urn: urn("UserRole", "me"),
      old: { type: "codesec:index:UserRole", inputs: ME, outputs: ME },
      new: {
        type: "codesec:index:UserRole",
        inputs: { ...ME, role: "ORG_ROLE_MEMBER" },
        outputs: { ...ME, role: "ORG_ROLE_MEMBER" },
      },
      replaceReasons: [],
    };
    const markdown = driftMarkdown(driftReport(refreshOf(STEPS, [changed])));
    const lines = markdown.split("\n");
    expect(lines).to.include('| UserRole "me" | role | "ORG_ROLE_ADMIN" | "ORG_ROLE_MEMBER" |');
    const notVisible = lines.indexOf("Not visible to this check (docs/drift.md):");
    const ownOnly = lines.indexOf(
      "Visible to this check only when it is the token owner's own role (docs/drift.md):",
    );
    expect(lines.slice(notVisible, ownOnly)).to.deep.equal([
      "Not visible to this check (docs/drift.md):",
      "",
      '- ScmWebhookSubscription "hooks": the platform has no read operation for webhook subscriptions',
      "",
    ]);
    expect(lines.slice(ownOnly)).to.deep.equal([
      "Visible to this check only when it is the token owner's own role (docs/drift.md):",
      "",
      "- UserRole \"max\": the platform reads back no other user's role, so a change to another user's role " +
        "made in the platform's UI does not show",
      "",
    ]);
    expect(markdown).not.to.match(/UserRole "me"[^|]*: the platform/);
  });
});
