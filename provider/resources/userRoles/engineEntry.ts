/**
 * What the engine loads for codesec:UserRoles: the package subpath `pulumi-codesec/dynamic/UserRoles`, which
 * the provider stored with each resource names (provider/dynamic/stubProvider.ts). The module's exports are
 * the provider object itself. Do not rename or move without keeping that subpath: stacks store it.
 */
import { engineEntry } from "../../dynamic/engineEntry";
import { dynamicProvider } from "../../dynamic/dynamicProvider";
import { userRolesDefinition } from "./definition";

export = engineEntry("UserRoles", dynamicProvider(userRolesDefinition));
