/**
 * The reviewer's access changes from a plan's steps, for the role kinds: the provider's rules on leaving
 * (roleOnDestroy, rolesOnDestroy, none) and on users declared again in the same run.
 */
import { expect } from "chai";
import { accessChanges, touchedTwice } from "../../provider/review/accessChanges";
import type { Step } from "../../provider/review/engineOutput";

const TYPE = "pulumi-nodejs:dynamic/codesec:UserRoles";
const state = (inputs: Record<string, unknown>) => ({
  type: TYPE,
  inputs: { ...inputs, __provider: "stub" },
  outputs: {},
});

function step(op: string, name: string, old?: Record<string, unknown>, next?: Record<string, unknown>): Step {
  return {
    op,
    urn: `urn:pulumi:prod::org::${TYPE}::${name}`,
    ...(old ? { old: state(old) } : {}),
    ...(next ? { new: state(next) } : {}),
    replaceReasons: [],
  };
}

describe("review: access changes", () => {
  it("a UserRoles update: an entry added, one changed, one leaving with rolesOnDestroy, one leaving without any", () => {
    const changes = accessChanges([
      step(
        "update",
        "team",
        {
          deploymentId: "1001",
          roles: { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_MEMBER", "504": "ORG_ROLE_MEMBER" },
          rolesOnDestroy: { "502": "ORG_ROLE_READONLY" },
        },
        { deploymentId: "1001", roles: { "503": "ORG_ROLE_ADMIN", "505": "ORG_ROLE_MEMBER" } },
      ),
    ]);
    expect(changes.map((c) => [c.userId, c.before ?? null, c.after, c.reason])).to.deep.equal([
      ["503", "ORG_ROLE_MEMBER", "ORG_ROLE_ADMIN", "changed"],
      ["505", null, "ORG_ROLE_MEMBER", "granted"],
      ["502", "ORG_ROLE_ADMIN", "ORG_ROLE_READONLY", "demoted"],
      ["504", "ORG_ROLE_MEMBER", "ORG_ROLE_MEMBER", "kept"],
    ]);
  });

  it("a user leaving one map for another is not demoted, and is flagged as touched twice", () => {
    const changes = accessChanges([
      step("delete", "old-team", {
        deploymentId: "1001",
        roles: { "502": "ORG_ROLE_ADMIN" },
        roleOnDestroy: "ORG_ROLE_READONLY",
      }),
      step("create", "new-team", undefined, { deploymentId: "1001", roles: { "502": "ORG_ROLE_ADMIN" } }),
    ]);
    expect(changes.map((c) => [c.name, c.after, c.reason])).to.deep.equal([
      ["old-team", "ORG_ROLE_ADMIN", "demotion-skipped"],
      ["new-team", "ORG_ROLE_ADMIN", "granted"],
    ]);
    expect([...touchedTwice(changes).keys()]).to.deep.equal(["1001/502"]);
  });
});
