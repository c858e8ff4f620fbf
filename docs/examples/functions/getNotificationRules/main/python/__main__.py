import pulumi
import pulumi_codesec as codesec

notification_rules = codesec.get_notification_rules(deployment_id="1001",
    limit=20)
pulumi.export("rulesWithProblems", [rule.name for rule in notification_rules.rules_with_problems])
pulumi.export("misconfiguredRules", [rule.name for rule in notification_rules.rules if rule.config_error != ""])
