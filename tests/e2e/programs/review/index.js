"use strict";
// One organization's configuration and the pull requests a reviewer is asked to read: config `e2e:change`
// picks the version of the program (none: the version applied by `pulumi up`).
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const deploymentId = cfg.require("deploymentId");
const change = cfg.get("change") ?? "base";

const team = {
  // The credentials' own user (501), the deployment's one admin.
  me: { userId: cfg.require("userId"), role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
  max: { userId: "502", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
  rita: { userId: "503", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
  temp: { userId: "504", role: "ORG_ROLE_READONLY" },
};
let webhooks = true;
let app = true;
let pushBranches = ["main"];
let secondApp; // { requestId, code } of a second SCM app

switch (change) {
  case "base":
    break;
  case "remove": // rita leaves (demoted by roleOnDestroy), temp leaves (keeps the role), the webhooks and the app go
    delete team.rita;
    delete team.temp;
    webhooks = false;
    app = false;
    break;
  case "replace": // rita's entry goes to another user, max's moves under a new name, a second app, release branches
    team.rita = { ...team.rita, userId: "505" };
    team["max-moved"] = team.max;
    delete team.max;
    pushBranches = ["main", "release/*"];
    secondApp = { requestId: cfg.require("secondRequestId"), code: cfg.requireSecret("secondCode") };
    break;
  case "admin": // a second admin, over the pack's limit of one, without roleOnDestroy
    team.lee = { userId: "505", role: "ORG_ROLE_ADMIN" };
    break;
  case "twice": // user 502 declared a second time, as an admin
    team["max-again"] = { userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" };
    break;
  default:
    throw new Error(`unknown e2e:change ${change}`);
}

for (const [name, member] of Object.entries(team)) {
  new codesec.UserRole(name, { deploymentId, ...member });
}
new codesec.WorkflowProvisioning("ci", {
  deploymentId,
  filters: { ids: ["7001", "7002"] },
  ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches },
});
if (webhooks)
  new codesec.ScmWebhookSubscription("hooks", { deploymentId, configId: cfg.require("scmConfigId") });
if (app) {
  new codesec.ScmApp("github", {
    deploymentId,
    requestId: cfg.require("scmAppRequestId"),
    code: cfg.requireSecret("scmAppCode"),
  });
}
if (secondApp) new codesec.ScmApp("gitlab", { deploymentId, ...secondApp });
