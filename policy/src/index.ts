/**
 * `codesec`: the organization security rules of pulumi-codesec stacks, as a Pulumi policy pack. Run it with
 * `pulumi preview --policy-pack <this folder>`; set each rule's level and settings with
 * `--policy-pack-config` (docs/review-and-drift.md).
 */
import * as nodeModule from "node:module";
import { PolicyPack } from "@pulumi/policy";
import { policyOf } from "./pack";
import { RULES } from "./rules";

new PolicyPack("codesec", { policies: RULES.map(policyOf) });

// With Node's compile cache on (NODE_COMPILE_CACHE; the set-up's launcher turns it on), written now that
// every module of the start is loaded: the engine stops the pack with a signal, which ends Node before
// the write it does at a normal exit, so the next start would compile them all again.
(nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
