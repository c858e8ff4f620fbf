/**
 * `codesec`: the organization security rules of pulumi-codesec stacks, as a Pulumi policy pack. Run it with
 * `pulumi preview --policy-pack <this folder>`; set each rule's level and settings with
 * `--policy-pack-config` (docs/review-and-drift.md).
 */
import { PolicyPack } from "@pulumi/policy";
import { policyOf } from "./pack";
import { RULES } from "./rules";

new PolicyPack("codesec", { policies: RULES.map(policyOf) });
