// roleOnDestroy applies to a user removed from the map, and to every user on destroy; rolesOnDestroy
// sets it per user instead.
resource team "codesec:index:UserRoles" {
  __logicalName = "platform-team"
  deploymentId  = "1001"
  roles = {
    "502" = "ORG_ROLE_ADMIN"
    "503" = "ORG_ROLE_MEMBER"
  }
  roleOnDestroy = "ORG_ROLE_READONLY"
  rolesOnDestroy = {
    "502" = "ORG_ROLE_MEMBER"
  }
}
