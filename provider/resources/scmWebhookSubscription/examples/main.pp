resource hooks "codesec:index:ScmWebhookSubscription" {
  __logicalName = "github-hooks"
  deploymentId  = "1001"
  configId      = "scmcfg-1001-a"
}

output subscribedEvents {
  value = hooks.events
}
