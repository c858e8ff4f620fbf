resource ci "codesec:index:WorkflowProvisioning" {
  deploymentId = "1001"
  filters = {
    codeAccess = true
    archived   = false
    setup      = true
  }
  // Project 7005 is a local-scan project: no repository to write a workflow into.
  excludeIds = ["7005"]
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
