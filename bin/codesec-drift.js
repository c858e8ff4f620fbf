#!/usr/bin/env node
"use strict";
// codesec-drift: see provider/review/commands.ts (docs/review-and-drift.md).
const { driftMain, processIo } = require("../dist/provider/review/commands");
driftMain(process.argv.slice(2), processIo, process.env).then((code) => {
  process.exitCode = code;
});
