import pulumi
import pulumi_codesec as codesec

branch = codesec.get_branch(deployment_id="1001",
    project_id="7001",
    branch_id="9101")
pulumi.export("branchName", branch.name)
