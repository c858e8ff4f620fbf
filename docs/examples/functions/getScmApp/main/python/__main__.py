import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
scm_app_code = config.require_secret("scmAppCode")
github = codesec.ScmApp("github",
    deployment_id="1001",
    request_id="apprq-1001-a",
    code=scm_app_code)
# github.requestId, not the literal: the call depends on the app's resource, so it runs once the app is
# connected; at a preview before that, its result is unknown and nothing is asked (no 404).
app = codesec.get_scm_app_output(deployment_id="1001",
    request_id=github.request_id)
pulumi.export("appName", app.scm_name)
