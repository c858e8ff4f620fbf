// A program written as for pulumi-github: roles from string config, the enum object, no-argument
// functions, a lookup by id, and Pulumi's invoke options from inside a component.
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";
import type { CodeSecClientOptions } from "pulumi-codesec/sdk";

const cfg = new pulumi.Config();
const deploymentId = cfg.get("deploymentId") ?? "1001";

class Team extends pulumi.ComponentResource {
  readonly memberRole: pulumi.Output<string>;
  readonly seenBy: pulumi.Output<string>;

  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("e2e:index:Team", name, {}, opts);
    const member = new codesec.UserRole(
      `${name}-member`,
      {
        deploymentId,
        userId: cfg.require("memberUserId"),
        role: cfg.get("role") ?? codesec.OrgRole.Admin,
        roleOnDestroy: codesec.OrgRole.Readonly,
      },
      { parent: this },
    );
    this.memberRole = member.role;
    const me = codesec.getCurrentUserOutput({}, { parent: this, dependsOn: [member] });
    this.seenBy = me.login;
    this.registerOutputs({ memberRole: this.memberRole, seenBy: this.seenBy });
  }
}

const team = new Team("team");
const me: pulumi.Output<codesec.GetCurrentUserResult> = codesec.getCurrentUserOutput();
const self = codesec.UserRole.get("self", pulumi.interpolate`${deploymentId}/${me.id}`);
const scan = codesec.getScanOutput({ deploymentId, scanId: cfg.require("scanId") });
const settings: CodeSecClientOptions | undefined = undefined;

export const memberRole = team.memberRole;
export const seenBy = team.seenBy;
export const selfRole = self.role;
export const selfUserId = self.userId;
export const scanStatus = scan.status;
export const usesDefaultSettings = settings === undefined;
