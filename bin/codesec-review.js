#!/usr/bin/env node
"use strict";
// codesec-review: see provider/review/commands.ts (docs/review-and-drift.md).
const { reviewMain, processIo } = require("../dist/provider/review/commands");
reviewMain(process.argv.slice(2), processIo, process.env).then((code) => {
  process.exitCode = code;
});
