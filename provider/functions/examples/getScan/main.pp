scan = invoke("codesec:index:getScan", {
  deploymentId = "1001"
  scanId       = "3001"
})

output latestScanStatus {
  value = scan.status
}

output findings {
  value = scan.findingsCounts.total
}
