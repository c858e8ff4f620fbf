/** Who may administer a deployment: how many admins, how they leave, who may impersonate. */
import { grantKey } from "pulumi-codesec/review";
import { declaredGrants, type DeclaredGrant } from "../grants";
import { defineRule, groupBy, label, type Violation } from "../rule";

function by(grant: DeclaredGrant): string {
  return `user ${grant.userId} (${label(grant.resource)})`;
}

export const adminCount = defineRule<{ minAdmins: number; maxAdmins: number }>({
  id: "codesec-admin-count",
  description:
    "Each deployment the stack declares roles in has at least minAdmins and at most maxAdmins admins.",
  enforcementLevel: "mandatory",
  config: {
    minAdmins: { schema: { type: "integer", minimum: 0 }, default: 1 },
    maxAdmins: { schema: { type: "integer", minimum: 1 }, default: 3 },
  },
  check(resources, { minAdmins, maxAdmins }) {
    const violations: Violation[] = [];
    for (const [deploymentId, grants] of groupBy(declaredGrants(resources), (grant) => grant.deploymentId)) {
      const admins = [
        ...groupBy(
          grants.filter((grant) => grant.role === "ORG_ROLE_ADMIN"),
          grantKey,
        ).values(),
      ]
        .map((declarations) => declarations[0])
        .sort((a, b) => a.userId.localeCompare(b.userId, undefined, { numeric: true }));
      if (admins.length > maxAdmins) {
        violations.push({
          message:
            `deployment ${deploymentId} declares ${admins.length} admins, more than the ${maxAdmins} allowed ` +
            `(maxAdmins): ${admins.map(by).join(", ")}. Give one of them another role, or raise maxAdmins ` +
            "in the policy pack's config.",
        });
      }
      if (admins.length < minAdmins) {
        violations.push({
          message:
            `deployment ${deploymentId} declares ${admins.length} admin(s), fewer than the ${minAdmins} required ` +
            "(minAdmins): declare its admins with role ORG_ROLE_ADMIN, or lower minAdmins in the policy pack's " +
            "config (0 for a stack that manages no admin).",
        });
      }
    }
    return violations;
  },
});

export const adminRoleOnDestroy = defineRule<object>({
  id: "codesec-admin-role-on-destroy",
  description:
    "Every admin grant has a roleOnDestroy, so that removing it from the stack demotes the user instead of " +
    "leaving them admin.",
  // Advisory by default: the platform refuses to demote a deployment's last admin, so a stack whose only
  // admin is the deployment's last one cannot satisfy it. Set it to mandatory in the pack's config.
  enforcementLevel: "advisory",
  config: {},
  check(resources) {
    return declaredGrants(resources)
      .filter((grant) => grant.role === "ORG_ROLE_ADMIN" && grant.roleOnDestroy === undefined)
      .map((grant) => ({
        urn: grant.resource.urn,
        message:
          `${label(grant.resource)} makes user ${grant.userId} ORG_ROLE_ADMIN of deployment ${grant.deploymentId} ` +
          "without roleOnDestroy: once removed from the stack the user stays admin. Set roleOnDestroy " +
          "(e.g. ORG_ROLE_MEMBER).",
      }));
  },
});

export const impersonatorAllowList = defineRule<{ allowedUserIds: string[] }>({
  id: "codesec-impersonator-allow-list",
  description:
    "ORG_ROLE_IMPERSONATOR only for the users in allowedUserIds (`<userId>` or `<deploymentId>/<userId>`).",
  enforcementLevel: "mandatory",
  config: {
    allowedUserIds: { schema: { type: "array", items: { type: "string" } }, default: [] },
  },
  check(resources, { allowedUserIds }) {
    return declaredGrants(resources)
      .filter(
        (grant) =>
          (grant.role === "ORG_ROLE_IMPERSONATOR" || grant.roleOnDestroy === "ORG_ROLE_IMPERSONATOR") &&
          !allowedUserIds.includes(grant.userId) &&
          !allowedUserIds.includes(grantKey(grant)),
      )
      .map((grant) => ({
        urn: grant.resource.urn,
        message:
          `${label(grant.resource)} makes user ${grant.userId} ORG_ROLE_IMPERSONATOR of deployment ` +
          `${grant.deploymentId}${grant.role === "ORG_ROLE_IMPERSONATOR" ? "" : " on destroy"}, and the user is ` +
          "not in allowedUserIds: give another role, or add the user to allowedUserIds in the policy pack's config.",
      }));
  },
});
