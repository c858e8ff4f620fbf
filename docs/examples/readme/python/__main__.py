import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
scm_app_code = config.require_secret("scmAppCode")
# roleOnDestroy: demoted again by `pulumi destroy`.
member = codesec.UserRole("member-502",
    deployment_id="1001",
    user_id="502",
    role=codesec.OrgRole.ADMIN,
    role_on_destroy=codesec.OrgRole.MEMBER)
# Project 7005 is a local-scan project: no repository to write a workflow into.
ci = codesec.WorkflowProvisioning("ci",
    deployment_id="1001",
    filters={
        "code_access": True,
        "archived": False,
        "setup": True,
    },
    exclude_ids=["7005"],
    gha_options={
        "pr_enabled": True,
        "push_enabled": True,
        "push_branches": ["main"],
    })
hooks = codesec.ScmWebhookSubscription("hooks",
    deployment_id="1001",
    config_id="scmcfg-1001-a")
github = codesec.ScmApp("github",
    deployment_id="1001",
    request_id="apprq-1001-a",
    code=scm_app_code)
notification_rules = codesec.get_notification_rules(deployment_id="1001")
pulumi.export("workflowFiles", ci.repo_file_urls)
pulumi.export("appSlug", github.slug)
pulumi.export("misconfiguredRules", [rule.name for rule in notification_rules.rules if rule.config_error != ""])
