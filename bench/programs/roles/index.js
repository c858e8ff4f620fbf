"use strict";
/**
 * N organization roles in deployment 1001 for members 100000 ... 100000+N-1 (bench/support/fixtures.ts),
 * declared one of six ways (stack config `bench:provider`):
 *
 * - `codesec`: N `codesec.UserRole`s, the package's dynamic resources (credentials from
 *   codesec:baseUrl/token);
 * - `native`: N `codesec.UserRole`s of the generated Node SDK (`@pulumi-codesec/codesec`), served by the
 *   native plugin `pulumi-resource-codesec` (on PATH), same config;
 * - `native-unaliased` (the native SDK aliases comparison only): the same, without the aliases to the dynamic
 *   types that the generated SDK adds to every resource;
 * - `map`: one dynamic `codesec.UserRoles` holding the N users (same config);
 * - `noop`: the engine floor, a dynamic provider that calls nothing (bench/floors/noop.js);
 * - `http`: the HTTP floor, a dynamic provider that makes the calls codesec.UserRole should make (a role
 *   write on create, update and delete, a current-user read once per provider process on read) with a bare
 *   keep-alive `node:http` request and nothing else (bench/floors/http.js; credentials from
 *   BENCH_BASE_URL/BENCH_TOKEN).
 *
 * `bench:count` sets N; `bench:changed` = k gives the first k roles another role (an update of k).
 * Plain JavaScript, so that no TypeScript compile adds the same constant to every side.
 */
const pulumi = require("@pulumi/pulumi");

/**
 * BENCH_PROBE_FILE (the large stacks comparison): what the program runs with, before it declares anything,
 * so that the bench can say which settings reach it.
 */
if (process.env.BENCH_PROBE_FILE) {
  require("node:fs").writeFileSync(
    process.env.BENCH_PROBE_FILE,
    JSON.stringify({
      execArgv: process.execArgv,
      stackTraceLimit: Error.stackTraceLimit,
      tsNode: require.extensions[".ts"] !== undefined,
      env: Object.fromEntries(
        ["PULUMI_DEBUG_PROMISE_LEAKS", "PULUMI_NODEJS_TYPESCRIPT", "PULUMI_NODEJS_PARALLEL"].map((key) => [
          key,
          process.env[key],
        ]),
      ),
    }),
  );
}

const config = new pulumi.Config("bench");
const which = config.require("provider");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") || 0;

/**
 * The floors (bench/floors, installed in the stack's node_modules as `codesec-bench-floors`): each one
 * module whose exports are the provider object, so that Pulumi stores it as a one-line require, as short
 * as pulumi-codesec's own stub.
 */
const floors = {
  noop: () => require("codesec-bench-floors/noop"),
  http: () => require("codesec-bench-floors/http"),
};

/**
 * `native-unaliased`: a stack transformation empties each resource's aliases before Pulumi's SDK turns
 * them into URNs (transformations run first in its Resource constructor). The transformation costs the
 * side a call and an object per resource: what the comparison gives is what the aliases cost at least.
 */
if (which === "native-unaliased") {
  pulumi.runtime.registerStackTransformation(({ props, opts }) => ({
    props,
    opts: { ...opts, aliases: [] },
  }));
}

/**
 * How many aliases Pulumi's SDK holds for a native resource (its internal `__aliases`, made from the same
 * options it sends the engine), checked on every one: a change of the SDK or of the transformation must
 * not leave the two native sides measuring the same thing.
 */
function checkedAliases(resource, expected) {
  const got = resource.__aliases;
  if (!Array.isArray(got) || got.length !== expected) {
    throw new Error(`bench: a ${which} UserRole has ${got?.length} aliases, expected ${expected}`);
  }
  return resource;
}

function declare(name, args) {
  if (which === "codesec") return new (require("pulumi-codesec").UserRole)(name, args);
  if (which === "native")
    return checkedAliases(new (require("@pulumi-codesec/codesec").UserRole)(name, args), 1);
  if (which === "native-unaliased")
    return checkedAliases(new (require("@pulumi-codesec/codesec").UserRole)(name, args), 0);
  if (which === "noop")
    return new pulumi.dynamic.Resource(floors.noop(), name, args, {}, "bench", "NoopRole");
  if (which === "http")
    return new pulumi.dynamic.Resource(floors.http(), name, args, {}, "bench", "HttpRole");
  throw new Error(
    `bench:provider must be codesec, native, native-unaliased, map, noop or http, got ${which}`,
  );
}

const roleOf = (i) => (i < changed ? "ORG_ROLE_READONLY" : "ORG_ROLE_ADMIN");

if (which === "map") {
  const roles = {};
  for (let i = 0; i < count; i++) roles[String(100000 + i)] = roleOf(i);
  new (require("pulumi-codesec").UserRoles)("team", {
    deploymentId: "1001",
    roles,
    roleOnDestroy: "ORG_ROLE_MEMBER",
  });
} else {
  for (let i = 0; i < count; i++) {
    declare(`role-${i}`, {
      deploymentId: "1001",
      userId: String(100000 + i),
      role: roleOf(i),
      roleOnDestroy: "ORG_ROLE_MEMBER",
    });
  }
}
