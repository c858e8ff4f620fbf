config scmAppCode "string" {
  secret = true
}

// roleOnDestroy: demoted again by `pulumi destroy`.
resource member "codesec:index:UserRole" {
  __logicalName = "member-502"
  deploymentId  = "1001"
  userId        = "502"
  role          = "ORG_ROLE_ADMIN"
  roleOnDestroy = "ORG_ROLE_MEMBER"
}

// Project 7005 is a local-scan project: no repository to write a workflow into.
resource ci "codesec:index:WorkflowProvisioning" {
  deploymentId = "1001"
  filters = {
    codeAccess = true
    archived   = false
    setup      = true
  }
  excludeIds = ["7005"]
  ghaOptions = {
    prEnabled    = true
    pushEnabled  = true
    pushBranches = ["main"]
  }
}

resource hooks "codesec:index:ScmWebhookSubscription" {
  deploymentId = "1001"
  configId     = "scmcfg-1001-a"
}

resource github "codesec:index:ScmApp" {
  deploymentId = "1001"
  requestId    = "apprq-1001-a"
  code         = scmAppCode
}

notificationRules = invoke("codesec:index:getNotificationRules", {
  deploymentId = "1001"
})

output workflowFiles {
  value = ci.repoFileUrls
}

output appSlug {
  value = github.slug
}

// Rules the platform cannot deliver through: a configuration error. (Disabled rules are not broken;
// rulesWithProblems lists both kinds, for a review of everything that needs attention.)
output misconfiguredRules {
  value = [for rule in notificationRules.rules : rule.name if rule.configError != ""]
}
