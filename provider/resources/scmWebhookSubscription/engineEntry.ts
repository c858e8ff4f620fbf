/**
 * What the engine loads for codesec:ScmWebhookSubscription: the package subpath `pulumi-codesec/dynamic/ScmWebhookSubscription`, which the
 * provider stored with each resource names (provider/dynamic/stubProvider.ts). The module's exports are the
 * provider object itself. Do not rename or move without keeping that subpath: stacks store it.
 */
import { engineEntry } from "../../dynamic/engineEntry";
import { dynamicProvider } from "../../dynamic/dynamicProvider";
import { scmWebhookSubscriptionDefinition } from "./definition";

export = engineEntry("ScmWebhookSubscription", dynamicProvider(scmWebhookSubscriptionDefinition));
