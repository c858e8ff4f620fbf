/** One object, one declaration: a user's role, a webhook subscription or an SCM app declared twice. */
import { grantKey } from "pulumi-codesec/review";
import { declaredGrants } from "../grants";
import { defineRule, groupBy, label, ofKind, type Violation } from "../rule";

export const userDeclaredTwice = defineRule<object>({
  id: "codesec-user-declared-twice",
  description: "A user's role in a deployment is declared once (by one UserRole, or one entry of UserRoles).",
  enforcementLevel: "mandatory",
  config: {},
  check(resources) {
    const violations: Violation[] = [];
    const byName = declaredGrants(resources).sort((a, b) => a.resource.name.localeCompare(b.resource.name));
    for (const grants of groupBy(byName, grantKey).values()) {
      if (grants.length < 2) continue;
      const [first, ...others] = grants;
      violations.push({
        urn: others[0].resource.urn,
        message:
          `user ${first.userId} of deployment ${first.deploymentId} is declared ${grants.length} times: ` +
          `${grants.map((grant) => `${label(grant.resource)} (${grant.role})`).join(", ")}. The last to apply wins, ` +
          "and removing one later demotes the user the other still declares: keep one declaration.",
      });
    }
    return violations;
  },
});

export const webhookSubscribedTwice = defineRule<object>({
  id: "codesec-webhook-subscribed-twice",
  description: "An SCM configuration's webhook subscription is declared once per deployment.",
  // Subscribing is idempotent: a second declaration is harmless but misleading (removing one of them
  // does not unsubscribe; the platform has no unsubscribe operation).
  enforcementLevel: "advisory",
  config: {},
  check(resources) {
    return [
      ...groupBy(
        ofKind(resources, "ScmWebhookSubscription").sort((a, b) => a.name.localeCompare(b.name)),
        (hook) => `${hook.view.inputs.deploymentId}/${hook.view.inputs.configId}`,
      ).values(),
    ]
      .filter((hooks) => hooks.length > 1)
      .map((hooks) => ({
        urn: hooks[1].urn,
        message:
          `SCM configuration ${hooks[0].view.inputs.configId} of deployment ${hooks[0].view.inputs.deploymentId} ` +
          `is subscribed by ${hooks.map(label).join(" and ")}: keep one.`,
      }));
  },
});

export const scmAppDeclaredTwice = defineRule<object>({
  id: "codesec-scm-app-declared-twice",
  description: "An SCM app request is declared by one ScmApp.",
  // Its one-time code completes the request once: the second create fails (already completed).
  enforcementLevel: "mandatory",
  config: {},
  check(resources) {
    return [
      ...groupBy(
        ofKind(resources, "ScmApp").sort((a, b) => a.name.localeCompare(b.name)),
        (app) => `${app.view.inputs.deploymentId}/${app.view.inputs.requestId}`,
      ).values(),
    ]
      .filter((apps) => apps.length > 1)
      .map((apps) => ({
        urn: apps[1].urn,
        message:
          `SCM app request ${apps[0].view.inputs.requestId} of deployment ${apps[0].view.inputs.deploymentId} is ` +
          `declared by ${apps.map(label).join(" and ")}; its one-time code completes it once, so all but one ` +
          "would fail: keep one.",
      }));
  },
});
