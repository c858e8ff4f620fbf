"""The native provider (pulumi-resource-codesec) through its generated Python SDK (sdk/python,
pulumi_codesec): the TypeScript program of tests/e2e/programs/native, written as a Python user writes it.
Two organizations through explicit Provider resources, all four kinds and UserRoles, and the six functions
in both forms; the exports have the TypeScript program's names, so tests/e2e/nativeLanguages.test.ts
asserts the same outcome for every language."""

import pulumi
import pulumi_codesec as codesec

cfg = pulumi.Config("e2e")
base_url = cfg.require("baseUrl")

acme = codesec.Provider("acme", base_url=base_url, token=cfg.require_secret("acmeToken"))
# A plain string on purpose (the other programs pass secrets): the SDK must mark the token secret itself, as
# the schema says, and the suite's sweep of the state export finds it in the clear if it does not.
globex = codesec.Provider("globex", base_url=base_url, token=cfg.require("globexToken"))
# The admin's own JWT on acme: listing the joinable organizations accepts nothing else.
acme_jwt = codesec.Provider("acme-jwt", base_url=base_url, token=cfg.require_secret("acmeJwt"))

member = codesec.UserRole(
    "member",
    deployment_id="1001",
    user_id="502",
    role=cfg.require("memberRole"),
    role_on_destroy=codesec.OrgRole.MEMBER,
    opts=pulumi.ResourceOptions(
        provider=acme,
        custom_timeouts=pulumi.CustomTimeouts(update=cfg.get("memberUpdateTimeout") or "5m"),
    ),
)
ci = codesec.WorkflowProvisioning(
    "ci",
    deployment_id="1001",
    filters={"ids": ["7001", "7002"]},
    gha_options={"pr_enabled": True},
    opts=pulumi.ResourceOptions(provider=acme),
)
hooks = codesec.ScmWebhookSubscription(
    "hooks", deployment_id="1001", config_id="scmcfg-1001-a", opts=pulumi.ResourceOptions(provider=acme)
)
app = codesec.ScmApp(
    "app",
    deployment_id="1001",
    request_id="apprq-1001-a",
    code=cfg.require("appCode"),  # a plain string too: the SDK marks it secret
    opts=pulumi.ResourceOptions(provider=acme),
)
# A team's roles as one map.
team = codesec.UserRoles(
    "team",
    deployment_id="1001",
    roles={"503": codesec.OrgRole.MEMBER, "504": codesec.OrgRole.READONLY},
    role_on_destroy=codesec.OrgRole.MEMBER,
    opts=pulumi.ResourceOptions(provider=acme),
)
globex_admin = codesec.UserRole(
    "globex-admin",
    deployment_id="2002",
    user_id="601",
    role=codesec.OrgRole.ADMIN,
    opts=pulumi.ResourceOptions(provider=globex),
)
globex_hooks = codesec.ScmWebhookSubscription(
    "globex-hooks", deployment_id="2002", config_id="scmcfg-2002-a", opts=pulumi.ResourceOptions(provider=globex)
)

pulumi.export("memberRole", member.role)
pulumi.export("teamRoles", team.roles)
pulumi.export("workflowFiles", ci.repo_file_urls)
pulumi.export("subscribedEvents", hooks.events)
pulumi.export("appSlug", app.slug)
pulumi.export("globexRole", globex_admin.role)
pulumi.export("globexEvents", globex_hooks.events)

# Direct forms (the invoke runs when the program does).
pulumi.export("globexUser", codesec.get_current_user(opts=pulumi.InvokeOptions(provider=globex)).login)
pulumi.export(
    "acmeScan",
    codesec.get_scan(deployment_id="1001", scan_id="3001", opts=pulumi.InvokeOptions(provider=acme)).status,
)
pulumi.export(
    "joinable",
    [org.id for org in codesec.get_joinable_organizations(opts=pulumi.InvokeOptions(provider=acme_jwt)).orgs],
)
# Output forms.
pulumi.export("acmeUser", codesec.get_current_user_output(opts=pulumi.InvokeOptions(provider=acme)).login)
pulumi.export(
    "branchName",
    codesec.get_branch_output(
        deployment_id="1001", project_id="7001", branch_id="9101", opts=pulumi.InvokeOptions(provider=acme)
    ).name,
)
pulumi.export(
    "appFromFunction",
    codesec.get_scm_app_output(
        deployment_id="1001", request_id=app.request_id, opts=pulumi.InvokeOptions(provider=acme)
    ).slug,
)
notification_rules = codesec.get_notification_rules_output(
    deployment_id="1001", limit=2, opts=pulumi.InvokeOptions(provider=acme)
)
pulumi.export("problemRules", notification_rules.rules_with_problems.apply(lambda rules: [rule.id for rule in rules]))
pulumi.export(
    "problemErrors", notification_rules.rules_with_problems.apply(lambda rules: [rule.config_error for rule in rules])
)
