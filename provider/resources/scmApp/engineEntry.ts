/**
 * What the engine loads for codesec:ScmApp: the package subpath `pulumi-codesec/dynamic/ScmApp`, which the
 * provider stored with each resource names (provider/dynamic/stubProvider.ts). The module's exports are the
 * provider object itself. Do not rename or move without keeping that subpath: stacks store it.
 */
import { engineEntry } from "../../dynamic/engineEntry";
import { dynamicProvider } from "../../dynamic/dynamicProvider";
import { scmAppDefinition } from "./definition";

export = engineEntry("ScmApp", dynamicProvider(scmAppDefinition));
