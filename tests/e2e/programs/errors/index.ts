// Fails on purpose, in the way stack config e2e:case names (see tests/e2e/errorReporting.test.ts).
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

const cfg = new pulumi.Config("e2e");
const failure = cfg.require("case");

function result(): pulumi.Output<unknown> {
  switch (failure) {
    case "apply":
      // A program error inside an apply (the program's own bug, not the package's).
      return pulumi.output(1).apply((): number => {
        throw new Error("e2e: thrown inside an apply");
      });
    case "function":
      // A failing Output-form function: the test runs it with no credentials anywhere.
      return codesec.getCurrentUserOutput().login;
    case "resource":
      // A resource whose calls the test makes fail (a refused token, a fault on the platform).
      return new codesec.UserRole("member", {
        deploymentId: cfg.require("deploymentId"),
        userId: cfg.require("memberUserId"),
        role: codesec.OrgRole.Readonly,
        roleOnDestroy: codesec.OrgRole.Member,
      }).role;
    default:
      throw new Error(`e2e: unknown case ${failure}`);
  }
}

export const value = result();
