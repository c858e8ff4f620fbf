import pulumi
import pulumi_codesec as codesec

ci = codesec.WorkflowProvisioning("ci",
    deployment_id="1001",
    filters={
        "code_access": True,
        "archived": False,
        "setup": True,
    },
    exclude_ids=["7005"],
    gha_options={
        "pr_enabled": True,
        "pr_send_comments": True,
        "push_enabled": True,
        "push_branches": ["main"],
    })
pulumi.export("workflowFiles", ci.repo_file_urls)
