import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const me = codesec.getCurrentUser({});
export const whoami = me.then(me => me.login);
export const myOrgRole = me.then(me => me.orgRole);
