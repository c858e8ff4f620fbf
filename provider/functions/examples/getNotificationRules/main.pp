notificationRules = invoke("codesec:index:getNotificationRules", {
  deploymentId = "1001"
  limit        = 20
})

// A rule needs attention when its configuration has an error, or when it is switched off.
output rulesWithProblems {
  value = [for rule in notificationRules.rulesWithProblems : rule.name]
}

// Only the rules the platform cannot deliver through.
output misconfiguredRules {
  value = [for rule in notificationRules.rules : rule.name if rule.configError != ""]
}
