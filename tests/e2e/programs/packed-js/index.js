// @ts-check
// The packed-package program in plain JavaScript: the editor (checkJs) sees the package's typings.
"use strict";
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config();
const deploymentId = cfg.get("deploymentId") ?? "1001";

class Team extends pulumi.ComponentResource {
  /**
   * @param {string} name
   * @param {pulumi.ComponentResourceOptions} [opts]
   */
  constructor(name, opts) {
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
    /** @type {pulumi.Output<string>} */
    this.memberRole = member.role;
    /** @type {pulumi.Output<string>} */
    this.seenBy = codesec.getCurrentUserOutput({}, { parent: this, dependsOn: [member] }).login;
    this.registerOutputs({ memberRole: this.memberRole, seenBy: this.seenBy });
  }
}

const team = new Team("team");
const me = codesec.getCurrentUserOutput();
const self = codesec.UserRole.get("self", pulumi.interpolate`${deploymentId}/${me.id}`);

module.exports = {
  memberRole: team.memberRole,
  seenBy: team.seenBy,
  selfRole: self.role,
  selfUserId: self.userId,
  scanStatus: codesec.getScanOutput({ deploymentId, scanId: cfg.require("scanId") }).status,
};
