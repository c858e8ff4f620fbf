import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
user_jwt = config.require_secret("userJwt")
# The JWT's own user (getCurrentUser's id with that provider)
user_id = config.require("userId")
# The platform accepts only a user JWT for this operation: an explicit provider with one.
user = codesec.Provider("user",
    base_url="https://codesec.example.com",
    token=user_jwt)
joinable = codesec.get_joinable_organizations(user_id=user_id, opts=pulumi.InvokeOptions(provider=user))
pulumi.export("joinableOrgs", [org.slug for org in joinable.orgs])
