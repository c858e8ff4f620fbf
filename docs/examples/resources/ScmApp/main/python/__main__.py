import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
scm_app_code = config.require_secret("scmAppCode")
github = codesec.ScmApp("github",
    deployment_id="1001",
    request_id="apprq-1001-a",
    code=scm_app_code)
# Adopt an app that is already connected (its request completed elsewhere): no code, create reads it.
legacy = codesec.ScmApp("legacy",
    deployment_id="1001",
    request_id="apprq-1001-done")
pulumi.export("appSlug", github.slug)
