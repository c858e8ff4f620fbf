/**
 * The program that .github/workflows/pr-preview.yml previews on every pull request: a few team roles.
 * Edit the `team` list (stack config, or the defaults below) in a pull request and the PR comment shows
 * what `pulumi up` would do to each role.
 */
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

interface Member {
  /** Logical resource name: keep it stable, it is how Pulumi matches an entry to what it created. */
  name: string;
  userId: string;
  role: codesec.OrgRole;
  roleOnDestroy?: codesec.OrgRole;
}

// Defaults: users of the emulator's default fixtures (deployment 1001).
const DEFAULT_TEAM: Member[] = [
  { name: "max", userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
  { name: "rita", userId: "503", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
];

const cfg = new pulumi.Config();
const deploymentId = cfg.get("deploymentId") ?? "1001";
const team = cfg.getObject<Member[]>("team") ?? DEFAULT_TEAM;

const roles = team.map(
  (member) =>
    new codesec.UserRole(member.name, {
      deploymentId,
      // `pulumi config set --path 'team[0].userId' 502` stores a number; the platform's ids are strings.
      userId: String(member.userId),
      role: member.role,
      roleOnDestroy: member.roleOnDestroy,
    }),
);

/** name -> role, as applied. */
export const teamRoles = pulumi
  .all(roles.map((r, i) => pulumi.all([team[i].name, r.role])))
  .apply((pairs) => Object.fromEntries(pairs));
