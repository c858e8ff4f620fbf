/** Serializes a resource kind's stub provider exactly as `pulumi.dynamic.Resource` does. */
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { ResourceKind } from "../../provider/dynamic";
import { stubProvider } from "../../provider/dynamic/stubProvider";

export const RESOURCE_KINDS: ResourceKind[] = [
  "UserRole",
  "WorkflowProvisioning",
  "ScmWebhookSubscription",
  "ScmApp",
];

/**
 * The pinned text of a kind's stub: tests/fixtures/stub.template.js with the kind filled in (the kinds'
 * texts differ only there). A stub that no longer matches it differs from every stack's stored provider.
 */
export function pinnedStub(kind: ResourceKind): string {
  const template = readFileSync(path.join(__dirname, "../fixtures/stub.template.js"), "utf8");
  return template.replace("__KIND__", kind);
}

export async function serializedStub(kind: ResourceKind): Promise<string> {
  const provider = stubProvider(kind);
  // Same call as @pulumi/pulumi/dynamic: the function returning the provider, secrets allowed.
  const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return serialized.text;
}

// Run directly (`node -r ts-node/register/transpile-only tests/support/serializeStub.ts Kind`) to print one
// stub: the test uses this to serialize from another working directory.
if (require.main === module) {
  void serializedStub(process.argv[2] as ResourceKind).then((text) => process.stdout.write(text));
}
