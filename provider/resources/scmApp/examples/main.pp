config scmAppCode "string" {
  secret = true
}

resource github "codesec:index:ScmApp" {
  deploymentId = "1001"
  requestId    = "apprq-1001-a"
  code         = scmAppCode
}

// Adopt an app that is already connected (its request completed elsewhere): no code, create reads it.
resource legacy "codesec:index:ScmApp" {
  deploymentId = "1001"
  requestId    = "apprq-1001-done"
}

output appSlug {
  value = github.slug
}
