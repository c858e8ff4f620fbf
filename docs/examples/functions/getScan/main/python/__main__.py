import pulumi
import pulumi_codesec as codesec

scan = codesec.get_scan(deployment_id="1001",
    scan_id="3001")
pulumi.export("latestScanStatus", scan.status)
pulumi.export("findings", scan.findings_counts.total)
