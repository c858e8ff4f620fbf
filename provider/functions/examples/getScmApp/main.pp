config scmAppCode "string" {
  secret = true
}

resource github "codesec:index:ScmApp" {
  deploymentId = "1001"
  requestId    = "apprq-1001-a"
  code         = scmAppCode
}

// github.requestId, not the literal: the call depends on the app's resource, so it runs once the app is
// connected; at a preview before that, its result is unknown and nothing is asked (no 404).
app = invoke("codesec:index:getScmApp", {
  deploymentId = "1001"
  requestId    = github.requestId
})

output appName {
  value = app.scmName
}
