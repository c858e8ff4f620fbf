/**
 * What the engine loads for codesec:UserRole: the package subpath `pulumi-codesec/dynamic/UserRole`, which the
 * provider stored with each resource names (provider/dynamic/stubProvider.ts). The module's exports are the
 * provider object itself. Do not rename or move without keeping that subpath: stacks store it.
 */
import { engineEntry } from "../../dynamic/engineEntry";
import { dynamicProvider } from "../../dynamic/dynamicProvider";
import { userRoleDefinition } from "./definition";

export = engineEntry("UserRole", dynamicProvider(userRoleDefinition));
