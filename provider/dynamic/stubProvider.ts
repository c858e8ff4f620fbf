/**
 * The provider object handed to `pulumi.dynamic.Resource`. The engine serializes it to source text and
 * stores it with every resource (`__provider`), then reuses that text for refresh and destroy. So it is
 * a stub: each method loads the implementation from the installed package by its public name at run
 * time. `require` is never captured by closure serialization and `kind` is a plain string, so the text
 * holds no secret and no path, and stays byte-identical across machines and package versions.
 *
 * It must also stay under 2 KB, and the serializer spends ~170 bytes of wrapper on every function; so
 * `configure` is `forward` itself (called with the engine's request object instead of a method name)
 * rather than one more forwarding function; see `run` in provider/dynamic/index.ts. (`forward`, not
 * `run`: the serializer leaves out free variables that name a global, and test runners define `run`.)
 *
 * DO NOT change this function: tests/unit/provider.stub.test.ts pins its serialized text, and a new
 * text means every existing resource's stored provider differs from the one the program declares.
 */
/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access --
   the stub forwards whatever the engine passes to an implementation it can only require untyped (its
   text is pinned, so the disabling cannot live inside the function) */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../resources/registry";

export function stubProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
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
