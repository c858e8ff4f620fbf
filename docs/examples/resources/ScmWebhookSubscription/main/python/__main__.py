import pulumi
import pulumi_codesec as codesec

hooks = codesec.ScmWebhookSubscription("github-hooks",
    deployment_id="1001",
    config_id="scmcfg-1001-a")
pulumi.export("subscribedEvents", hooks.events)
