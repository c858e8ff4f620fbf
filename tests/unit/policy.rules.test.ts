/**
 * The policy pack's rules, as functions of the resources a stack declares: each rule on the dynamic and
 * the native form of a kind alike, its limits, opt-ins and messages.
 */
import { expect } from "chai";
import { viewOf } from "pulumi-codesec/review";
import { declaredResources } from "../../policy/src/pack";
import { RULES } from "../../policy/src/rules";
import { configOf, configSchemaOf, type Declared, type Rule } from "../../policy/src/rule";
import { adminCount, adminRoleOnDestroy, impersonatorAllowList } from "../../policy/src/rules/admins";
import { connectionByName, deploymentAllowList } from "../../policy/src/rules/connections";
import {
  scmAppDeclaredTwice,
  userDeclaredTwice,
  webhookSubscribedTwice,
} from "../../policy/src/rules/declaredTwice";
import { provisioningAllRepositories, provisioningPushBranches } from "../../policy/src/rules/provisioning";

type Form = "dynamic" | "native";
const TYPE: Record<Form, (kind: string) => string> = {
  dynamic: (kind) => `pulumi-nodejs:dynamic/codesec:${kind}`,
  native: (kind) => `codesec:index:${kind}`,
};

function declared(form: Form, kind: string, name: string, props: Record<string, unknown>): Declared {
  const type = TYPE[form](kind);
  // The dynamic form carries the engine's serialized provider, which no rule may read or print.
  const withProvider = form === "dynamic" ? { ...props, __provider: "exports.handler = SECRET-STUB" } : props;
  return { urn: `urn:pulumi:prod::org::${type}::${name}`, name, view: viewOf(type, withProvider)! };
}

function check<C extends object>(rule: Rule<C>, resources: Declared[], config: Partial<C> = {}) {
  return rule.check(resources, configOf(rule, config));
}

const role = (form: Form, name: string, userId: string, r: string, roleOnDestroy?: string) =>
  declared(form, "UserRole", name, {
    deploymentId: "1001",
    userId,
    role: r,
    ...(roleOnDestroy ? { roleOnDestroy } : {}),
  });

for (const form of ["dynamic", "native"] as const) {
  describe(`policy rules on ${form} resources`, () => {
    it("codesec-admin-count: more than maxAdmins distinct admins, or fewer than minAdmins, per deployment", () => {
      const two = [
        role(form, "me", "501", "ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER"),
        role(form, "lee", "505", "ORG_ROLE_ADMIN"),
      ];
      expect(check(adminCount, two, { maxAdmins: 2 })).to.deep.equal([]);
      expect(check(adminCount, two, { maxAdmins: 1 })).to.deep.equal([
        {
          message:
            'deployment 1001 declares 2 admins, more than the 1 allowed (maxAdmins): user 501 (UserRole "me"), ' +
            'user 505 (UserRole "lee"). Give one of them another role, or raise maxAdmins in the policy pack\'s config.',
        },
      ]);
      const none = [role(form, "max", "502", "ORG_ROLE_MEMBER")];
      expect(check(adminCount, none).map((v) => v.message)).to.deep.equal([
        "deployment 1001 declares 0 admin(s), fewer than the 1 required (minAdmins): declare its admins with role " +
          "ORG_ROLE_ADMIN, or lower minAdmins in the policy pack's config (0 for a stack that manages no admin).",
      ]);
      expect(check(adminCount, none, { minAdmins: 0 })).to.deep.equal([]);
    });

    it("codesec-admin-role-on-destroy: an admin grant without roleOnDestroy, on its resource", () => {
      const found = check(adminRoleOnDestroy, [
        role(form, "me", "501", "ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER"),
        role(form, "lee", "505", "ORG_ROLE_ADMIN"),
        role(form, "max", "502", "ORG_ROLE_MEMBER"),
      ]);
      expect(found.map((v) => v.urn)).to.deep.equal([`urn:pulumi:prod::org::${TYPE[form]("UserRole")}::lee`]);
      expect(found[0].message).to.equal(
        'UserRole "lee" makes user 505 ORG_ROLE_ADMIN of deployment 1001 without roleOnDestroy: once removed from ' +
          "the stack the user stays admin. Set roleOnDestroy (e.g. ORG_ROLE_MEMBER).",
      );
    });

    it("codesec-impersonator-allow-list: only listed users, by id or deployment/id, also as roleOnDestroy", () => {
      const grants = [
        role(form, "imp", "504", "ORG_ROLE_IMPERSONATOR"),
        role(form, "later", "503", "ORG_ROLE_MEMBER", "ORG_ROLE_IMPERSONATOR"),
      ];
      expect(check(impersonatorAllowList, grants).map((v) => v.message)).to.deep.equal([
        'UserRole "imp" makes user 504 ORG_ROLE_IMPERSONATOR of deployment 1001, and the user is not in ' +
          "allowedUserIds: give another role, or add the user to allowedUserIds in the policy pack's config.",
        'UserRole "later" makes user 503 ORG_ROLE_IMPERSONATOR of deployment 1001 on destroy, and the user is not ' +
          "in allowedUserIds: give another role, or add the user to allowedUserIds in the policy pack's config.",
      ]);
      expect(check(impersonatorAllowList, grants, { allowedUserIds: ["504", "1001/503"] })).to.deep.equal([]);
    });

    it("codesec-user-declared-twice: two declarations of one user in one deployment, never across deployments", () => {
      const twice = [
        role(form, "max", "502", "ORG_ROLE_MEMBER"),
        role(form, "max-again", "502", "ORG_ROLE_ADMIN"),
      ];
      expect(check(userDeclaredTwice, twice)).to.deep.equal([
        {
          urn: `urn:pulumi:prod::org::${TYPE[form]("UserRole")}::max-again`,
          message:
            'user 502 of deployment 1001 is declared 2 times: UserRole "max" (ORG_ROLE_MEMBER), UserRole "max-again" ' +
            "(ORG_ROLE_ADMIN). The last to apply wins, and removing one later demotes the user the other still " +
            "declares: keep one declaration.",
        },
      ]);
      const elsewhere = declared(form, "UserRole", "max-2002", {
        deploymentId: "2002",
        userId: "502",
        role: "ORG_ROLE_ADMIN",
      });
      expect(check(userDeclaredTwice, [twice[0], elsewhere])).to.deep.equal([]);
    });

    it("UserRoles: each entry is a grant; a user in a map and a UserRole, or in two maps, is declared twice", () => {
      const team = declared(form, "UserRoles", "team", {
        deploymentId: "1001",
        roles: { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_MEMBER" },
        roleOnDestroy: "ORG_ROLE_READONLY",
        rolesOnDestroy: { "502": "ORG_ROLE_MEMBER" },
      });
      const admins = declared(form, "UserRoles", "admins", {
        deploymentId: "1001",
        roles: { "503": "ORG_ROLE_ADMIN" },
      });
      const single = role(form, "max", "502", "ORG_ROLE_MEMBER");
      expect(check(userDeclaredTwice, [team, single, admins]).map((v) => v.message)).to.deep.equal([
        'user 503 of deployment 1001 is declared 2 times: UserRoles "admins" (ORG_ROLE_ADMIN), UserRoles "team" ' +
          "(ORG_ROLE_MEMBER). The last to apply wins, and removing one later demotes the user the other still " +
          "declares: keep one declaration.",
        'user 502 of deployment 1001 is declared 2 times: UserRole "max" (ORG_ROLE_MEMBER), UserRoles "team" ' +
          "(ORG_ROLE_ADMIN). The last to apply wins, and removing one later demotes the user the other still " +
          "declares: keep one declaration.",
      ]);
      // The map's admin 502 leaves with rolesOnDestroy; admin 503 of "admins" has no role on leaving.
      expect(
        check(adminRoleOnDestroy, [team, admins]).map((v) => String(v.urn).split("::").pop()),
      ).to.deep.equal(["admins"]);
      expect(check(adminCount, [team, admins], { maxAdmins: 1 }).map((v) => v.message)).to.deep.equal([
        'deployment 1001 declares 2 admins, more than the 1 allowed (maxAdmins): user 502 (UserRoles "team"), ' +
          'user 503 (UserRoles "admins"). Give one of them another role, or raise maxAdmins in the policy pack\'s config.',
      ]);
    });

    it("codesec-provisioning-all-repositories: filters that name no repository, unless the resource opted in", () => {
      const ci = (name: string, filters?: object) =>
        declared(form, "WorkflowProvisioning", name, {
          deploymentId: "1001",
          ...(filters ? { filters } : {}),
        });
      const all = [
        ci("everything"),
        ci("flags", { codeAccess: true, archived: false }),
        ci("named", { ids: ["7001"] }),
        ci("tagged", { tagId: 4 }),
        ci("search", { search: "pay" }),
      ];
      expect(check(provisioningAllRepositories, all).map((v) => v.message)).to.deep.equal([
        'WorkflowProvisioning "everything" writes the CI workflow into every repository of deployment 1001 (its ' +
          'filters name none by ids, search or tagId): narrow filters, or opt in by adding "everything" to ' +
          "allowedResources in the policy pack's config.",
        'WorkflowProvisioning "flags" writes the CI workflow into every repository of deployment 1001 (its filters ' +
          'name none by ids, search or tagId): narrow filters, or opt in by adding "flags" to allowedResources in ' +
          "the policy pack's config.",
      ]);
      expect(
        check(provisioningAllRepositories, all, { allowedResources: ["everything", "flags"] }),
      ).to.deep.equal([]);
    });

    it("codesec-provisioning-push-branches: push enabled without branches", () => {
      const ci = (name: string, ghaOptions: object) =>
        declared(form, "WorkflowProvisioning", name, {
          deploymentId: "1001",
          filters: { ids: ["7001"] },
          ghaOptions,
        });
      const found = check(provisioningPushBranches, [
        ci("bare", { pushEnabled: true }),
        ci("empty", { pushEnabled: true, pushBranches: [] }),
        ci("main", { pushEnabled: true, pushBranches: ["main"] }),
        ci("off", { pushEnabled: false }),
      ]);
      expect(found.map((v) => String(v.urn).split("::").pop())).to.deep.equal(["bare", "empty"]);
      expect(found[0].message).to.equal(
        'WorkflowProvisioning "bare" enables the workflow on push without ghaOptions.pushBranches, so it runs on ' +
          'a push to any branch: list the branches (e.g. pushBranches: ["main"]).',
      );
    });

    it("codesec-webhook-subscribed-twice and codesec-scm-app-declared-twice: one object, two resources", () => {
      const hook = (name: string) =>
        declared(form, "ScmWebhookSubscription", name, { deploymentId: "1001", configId: "scmcfg-1001-a" });
      expect(check(webhookSubscribedTwice, [hook("a"), hook("b")]).map((v) => v.message)).to.deep.equal([
        'SCM configuration scmcfg-1001-a of deployment 1001 is subscribed by ScmWebhookSubscription "a" and ' +
          'ScmWebhookSubscription "b": keep one.',
      ]);
      const app = (name: string) =>
        declared(form, "ScmApp", name, {
          deploymentId: "1001",
          requestId: "apprq-1001-a",
          code: "one-time-code-x",
        });
      const found = check(scmAppDeclaredTwice, [app("a"), app("b")]);
      expect(found.map((v) => v.message)).to.deep.equal([
        'SCM app request apprq-1001-a of deployment 1001 is declared by ScmApp "a" and ScmApp "b"; its one-time ' +
          "code completes it once, so all but one would fail: keep one.",
      ]);
      expect(JSON.stringify(found)).not.to.include("one-time-code-x");
    });

    it("codesec-deployment-allow-list and codesec-connection-by-name", () => {
      const resources = [
        declared(form, "ScmWebhookSubscription", "other", { deploymentId: "2002", configId: "c" }),
        declared(form, "UserRole", "token-in-program", {
          deploymentId: "1001",
          userId: "502",
          role: "ORG_ROLE_MEMBER",
          connection: { baseUrl: "https://codesec.example.com", token: "tok-SECRET" },
        }),
        declared(form, "UserRole", "named", {
          deploymentId: "1001",
          userId: "503",
          role: "ORG_ROLE_MEMBER",
          connection: "org2",
        }),
      ];
      expect(check(deploymentAllowList, resources)).to.deep.equal([]);
      expect(
        check(deploymentAllowList, resources, { deploymentIds: ["1001"] }).map((v) => v.message),
      ).to.deep.equal([
        'ScmWebhookSubscription "other" is in deployment 2002, which is not in deploymentIds (1001): check the ' +
          "deployment id, or add it to deploymentIds in the policy pack's config.",
      ]);
      const connections = check(connectionByName, resources);
      expect(connections.map((v) => String(v.urn).split("::").pop())).to.deep.equal(["token-in-program"]);
      expect(JSON.stringify(connections)).not.to.include("tok-SECRET");
    });
  });
}

describe("policy pack", () => {
  it("reads codesec resources of both forms, drops __provider, and ignores every other type", () => {
    const resources = declaredResources([
      {
        type: "pulumi-nodejs:dynamic/codesec:UserRole",
        name: "a",
        urn: "u1",
        props: { deploymentId: "1", userId: "2", role: "ORG_ROLE_ADMIN", __provider: "stub" },
      },
      { type: "codesec:index:ScmApp", name: "b", urn: "u2", props: { deploymentId: "1", requestId: "r" } },
      { type: "pulumi-nodejs:dynamic:Resource", name: "c", urn: "u3", props: {} },
      { type: "aws:s3/bucket:Bucket", name: "d", urn: "u4", props: {} },
      { type: "codesec:index:NoSuchKind", name: "e", urn: "u5", props: {} },
    ] as never);
    expect(resources.map((r) => [r.name, r.view.kind])).to.deep.equal([
      ["a", "UserRole"],
      ["b", "ScmApp"],
    ]);
    expect(resources[0].view.inputs).not.to.have.property("__provider");
  });

  it("has unique tfsec-style ids, a description each, and a config schema whose defaults are the rules' own", () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const rule of RULES) {
      expect(rule.id).to.match(/^codesec-[a-z]+(-[a-z]+)*$/);
      expect(rule.description).to.match(/\.$/);
      const schema = configSchemaOf(rule);
      for (const [key, setting] of Object.entries(rule.config as Record<string, { default: unknown }>)) {
        expect(
          (schema.properties as Record<string, { default: unknown }>)[key].default,
          `${rule.id}.${key}`,
        ).to.deep.equal(setting.default);
      }
    }
    expect(userDeclaredTwice.enforcementLevel).to.equal("mandatory");
  });
});
