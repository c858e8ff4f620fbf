config userJwt "string" {
  secret = true
}

config userId "string" {
  description = "The JWT's own user (getCurrentUser's id with that provider)"
}

// The platform accepts only a user JWT for this operation: an explicit provider with one.
resource user "pulumi:providers:codesec" {
  baseUrl = "https://codesec.example.com"
  token   = userJwt
}

joinable = invoke("codesec:index:getJoinableOrganizations", {
  userId = userId
}, {
  provider = user
})

output joinableOrgs {
  value = [for org in joinable.orgs : org.slug]
}
