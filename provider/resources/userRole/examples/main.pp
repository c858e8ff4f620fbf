// roleOnDestroy: `pulumi destroy` demotes the user to a member again.
resource member "codesec:index:UserRole" {
  __logicalName = "member-502"
  deploymentId  = "1001"
  userId        = "502"
  role          = "ORG_ROLE_ADMIN"
  roleOnDestroy = "ORG_ROLE_MEMBER"
}
