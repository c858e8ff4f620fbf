/** Serializes a resource kind's stub provider exactly as `pulumi.dynamic.Resource` does. */
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { ResourceKind } from "../../provider/dynamic";
import { stubProvider } from "../../provider/dynamic/stubProvider";
import { RESOURCE_KIND_NAMES } from "../../provider/resources/registry";

/** Every kind of the registry: a new kind is covered by the stub tests without being listed again. */
export const RESOURCE_KINDS: readonly ResourceKind[] = RESOURCE_KIND_NAMES;

function pinned(template: string, kind: ResourceKind): string {
  return readFileSync(path.join(__dirname, "../fixtures", template), "utf8").replace("__KIND__", kind);
}

/**
 * The pinned text of a kind's legacy stub (what stacks created by 0.1.0 to 0.3.0 store, and what the
 * provider stores when the package is not under node_modules): tests/fixtures/stub.legacy.template.js
 * with the kind filled in (the kinds' texts differ only there).
 */
export function pinnedLegacyStub(kind: ResourceKind): string {
  return pinned("stub.legacy.template.js", kind);
}

/** The pinned text of a kind's short stub, stored since 0.4.0 by a package installed under node_modules. */
export function pinnedShortStub(kind: ResourceKind): string {
  return pinned("stub.short.template.js", kind);
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
