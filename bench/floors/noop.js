"use strict";
/**
 * The no-op floor: a dynamic provider that calls nothing. What the engine costs for N resources whose
 * provider does no work: diff compares the role, create returns an id, update returns the inputs; no
 * read (refresh keeps the state) and no delete (destroy forgets). It lives in a package installed under
 * the stack's node_modules, so Pulumi stores it as `require("codesec-bench-floors/noop")`, as short as
 * pulumi-codesec's own stub (`require("pulumi-codesec/dynamic/UserRole")`): no floor is slowed by a
 * larger checkpoint than ours.
 */
module.exports = {
  diff: async (_id, olds, news) => ({ changes: olds.role !== news.role }),
  create: async (inputs) => ({ id: `${inputs.deploymentId}/${inputs.userId}`, outs: inputs }),
  update: async (_id, _olds, news) => ({ outs: news }),
};
