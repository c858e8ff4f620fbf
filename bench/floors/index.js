"use strict";
/**
 * The bench's floor providers (see ./noop.js and ./http.js). The package needs a main entry: Pulumi's
 * closure serializer finds an installed package's exports map through it, and only then stores a floor
 * as `require("codesec-bench-floors/noop")` rather than by a file path the exports map refuses.
 */
module.exports = {
  noop: () => require("./noop"),
  http: () => require("./http"),
};
