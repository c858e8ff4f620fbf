/**
 * The provider object handed to `pulumi.dynamic.Resource`. The engine serializes it to source text, stores
 * it with every resource (`__provider`, in both the inputs and the outputs) and reuses that text for
 * refresh and destroy. So it never holds the implementation: it loads it from the installed package by
 * its public name at run time, holds no secret and no path, and is the same on every machine.
 *
 * Two forms, chosen once per kind and process (one object per kind, so the engine's serializer cache
 * serializes each kind once per program run, not once per resource):
 * - **short** (since 0.4.0, about 300 bytes): the exports of the kind's entry module
 *   (`provider/generated/engineEntries/<Kind>.ts`). The serializer stores a module found under `node_modules` as
 *   `require("<package subpath>")`, mapped through the package's `exports`, so the stored text is
 *   `require("pulumi-codesec/dynamic/<Kind>")`. Used whenever the package is installed under
 *   `node_modules`, which is how a program gets it. The stored text names the subpath, not the file, so
 *   the entry file may live anywhere in the package as long as its `exports` entry follows it.
 * - **legacy** (0.1.0 to 0.3.0, about 1.9 KB): seven forwarding functions that call
 *   `require("pulumi-codesec/dynamic").run(kind, ...)`. Used when the package is loaded from outside
 *   `node_modules` (an `npm link`, this repository's own tests), where the serializer would copy the
 *   entry module's code by value instead; and what stacks written by earlier versions hold, so
 *   `pulumi-codesec/dynamic` keeps running it (provider/dynamic/index.ts).
 *
 * A stored provider that changes form shows no diff: the kinds' diffs ignore `__provider`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { compiledFile, engineEntryFile } from "../generatedLayout";
import type { ResourceKind } from "../resources/registry";

const stubs = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/** The provider object for a kind: one per kind per process. */
export function stubProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let stub = stubs.get(kind);
  if (stub === undefined) {
    stub = installedEntry(kind) ?? legacyStub(kind);
    stubs.set(kind, stub);
  }
  return stub;
}

/**
 * The kind's entry module, when the serializer will store it as `require("pulumi-codesec/dynamic/<Kind>")`:
 * the serializer names a module by its path after `node_modules` (see {@link serializerModuleName}), which
 * must be this package's own entry file (not a copy nested in another package, whose name would tie the
 * state to that layout), and maps that name through the `exports` of the package that `@pulumi/pulumi`
 * resolves, which must be this same package. Otherwise undefined: the serializer would store the entry
 * module by value (the whole implementation) or by a path that `exports` or a reinstall breaks.
 */
function installedEntry(kind: ResourceKind): pulumi.dynamic.ResourceProvider | undefined {
  const request = `pulumi-codesec/dynamic/${kind}`;
  try {
    const file = require.resolve(request); // as the require cache keys it, which the serializer reads
    const expected = `pulumi-codesec/${compiledFile(engineEntryFile(kind))}`;
    if (serializerModuleName(file, process.cwd()) !== expected) return undefined;
    // A require rooted in @pulumi/pulumi (not `paths`: from inside this package, Node resolves its own name to itself).
    const seenByPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json")).resolve(
      "pulumi-codesec/package.json",
    );
    if (realpathSync(seenByPulumi) !== realpathSync(require.resolve("pulumi-codesec/package.json"))) {
      return undefined;
    }
    return require(request) as pulumi.dynamic.ResourceProvider;
  } catch {
    return undefined; // not built, or not installed where both resolve it: the legacy form works anywhere
  }
}

/**
 * The name under which @pulumi/pulumi's closure serializer stores a module loaded from `file` (as
 * `require(name)`, before mapping it through the package's `exports`): its path relative to the working
 * directory after the first `node_modules` segment (the last one in a pnpm store), or undefined for a
 * module outside `node_modules`, which it serializes by value.
 */
export function serializerModuleName(file: string, cwd: string): string | undefined {
  const parts = path.relative(cwd, file).split(path.sep);
  const at = parts.includes(".pnpm") ? parts.lastIndexOf("node_modules") : parts.indexOf("node_modules");
  return at < 0 ? undefined : parts.slice(at + 1).join("/");
}

/*
 * The legacy form. DO NOT change this function: tests/unit/provider.stub.test.ts pins its serialized text
 * (tests/fixtures/stub.legacy.template.js), which stacks created by 0.1.0 to 0.3.0 store.
 *
 * `configure` is `forward` itself (called with the engine's request object instead of a method name);
 * see `run` in provider/dynamic/index.ts. (`forward`, not `run`: the serializer leaves out free variables
 * that name a global, and test runners define `run`.)
 */
/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access --
   the stub forwards whatever the engine passes to an implementation it can only require untyped (its
   text is pinned, so the disabling cannot live inside the function) */
export function legacyStub(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- forwards whatever the engine passes
  const forward = (method: any, args?: any[]) => require("pulumi-codesec/dynamic").run(kind, method, args);
  return {
    configure: forward,
    check: (...a) => forward("check", a),
    diff: (...a) => forward("diff", a),
    create: (...a) => forward("create", a),
    read: (...a) => forward("read", a),
    update: (...a) => forward("update", a),
    delete: (...a) => forward("delete", a),
  };
}
