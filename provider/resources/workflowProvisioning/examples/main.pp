resource ci "codesec:index:WorkflowProvisioning" {
  deploymentId = "1001"
  filters = {
    codeAccess = true
    archived   = false
    setup      = true
  }
  excludeIds = ["7002"]
  ghaOptions = {
    prEnabled      = true
    prSendComments = true
    pushEnabled    = true
    pushBranches   = ["main"]
  }
}

output workflowFiles {
  value = ci.repoFileUrls
}
