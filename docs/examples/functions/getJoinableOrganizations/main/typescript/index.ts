import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config();
const userJwt = config.requireSecret("userJwt");
// The JWT's own user (getCurrentUser's id with that provider)
const userId = config.require("userId");
// The platform accepts only a user JWT for this operation: an explicit provider with one.
const user = new codesec.Provider("user", {
    baseUrl: "https://codesec.example.com",
    token: userJwt,
});
const joinable = codesec.getJoinableOrganizations({
    userId: userId,
}, {
    provider: user,
});
export const joinableOrgs = joinable.then(joinable => joinable.orgs.map(org => (org.slug)));
