branch = invoke("codesec:index:getBranch", {
  deploymentId = "1001"
  projectId    = "7001"
  branchId     = "9101"
})

output branchName {
  value = branch.name
}
