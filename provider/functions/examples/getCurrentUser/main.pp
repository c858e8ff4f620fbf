me = invoke("codesec:index:getCurrentUser", {})

output whoami {
  value = me.login
}

output myOrgRole {
  value = me.orgRole
}
