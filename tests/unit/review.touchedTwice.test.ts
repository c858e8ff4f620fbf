/**
 * The review summary's warning about a user touched by several resources in one plan: the engine runs
 * independent steps in parallel, so when they set different roles the summary names no final role.
 */
import { expect } from "chai";
import type { EngineOutput, Step } from "../../provider/review/engineOutput";
import { reviewSummary } from "../../provider/review/reviewSummary";

const TYPE = "codesec:index:UserRole";

function create(name: string, role: string): Step {
  const inputs = { deploymentId: "1001", userId: "502", role };
  return {
    op: "create",
    urn: `urn:pulumi:prod::org::${TYPE}::${name}`,
    new: { type: TYPE, inputs, outputs: inputs },
    replaceReasons: [],
  };
}

function planOf(steps: Step[]): EngineOutput {
  return { steps, refreshed: [], violations: [], policiesKnown: true, errors: [], result: "succeeded" };
}

const warning = (summary: string) => summary.split("\n").filter((line) => line.startsWith("- ⚠️ user 502"));

describe("review: a user touched twice", () => {
  it("two creates that set different roles: no role is claimed as the one the user ends with", () => {
    const summary = reviewSummary(
      planOf([create("max", "ORG_ROLE_ADMIN"), create("max-again", "ORG_ROLE_MEMBER")]),
    );
    expect(warning(summary)).to.deep.equal([
      '- ⚠️ user 502 of deployment 1001 is touched by 2 resources in this plan (UserRole "max" created, ' +
        'UserRole "max-again" created): they set different roles (ORG_ROLE_ADMIN, ORG_ROLE_MEMBER) and the ' +
        "engine runs them in parallel unless one depends on the other, so which role the user ends with is " +
        "not known: declare the user's role once.",
    ]);
    expect(summary).not.to.include("ends with the role you mean");
  });

  it("two creates that set one role: the user ends with that role", () => {
    const summary = reviewSummary(
      planOf([create("max", "ORG_ROLE_ADMIN"), create("max-again", "ORG_ROLE_ADMIN")]),
    );
    expect(warning(summary)).to.deep.equal([
      '- ⚠️ user 502 of deployment 1001 is touched by 2 resources in this plan (UserRole "max" created, ' +
        'UserRole "max-again" created): check that the user ends with the role you mean (ORG_ROLE_ADMIN).',
    ]);
  });
});
