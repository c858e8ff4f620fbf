"use strict";
// One stack, two programs: stack config e2e:program picks which one runs (tests/e2e/migrationPaths.test.ts
// switches it, and the node_modules beside it, to move the stack). Only the chosen one is loaded, so each
// runs with its own package alone installed.
const pulumi = require("@pulumi/pulumi");

module.exports = require(new pulumi.Config("e2e").require("program") === "native" ? "./native" : "./dynamic");
