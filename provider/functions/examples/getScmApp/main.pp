config scmAppCode "string" {
  secret = true
}

resource github "codesec:index:ScmApp" {
  deploymentId = "1001"
  requestId    = "apprq-1001-a"
  code         = scmAppCode
}

// The output-only requestId: unknown until the app is connected, so a first preview does not ask too early.
app = invoke("codesec:index:getScmApp", {
  deploymentId = "1001"
  requestId    = github.requestId
})

output appName {
  value = app.scmName
}
