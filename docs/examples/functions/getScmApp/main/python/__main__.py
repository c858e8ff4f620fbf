import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
scm_app_code = config.require_secret("scmAppCode")
github = codesec.ScmApp("github",
    deployment_id="1001",
    request_id="apprq-1001-a",
    code=scm_app_code)
# The output-only requestId: unknown until the app is connected, so a first preview does not ask too early.
app = codesec.get_scm_app_output(deployment_id="1001",
    request_id=github.request_id)
pulumi.export("appName", app.scm_name)
