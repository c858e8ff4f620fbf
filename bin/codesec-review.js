#!/usr/bin/env node
"use strict";
// codesec-review: see provider/review/commands.ts (docs/review-and-drift.md).
const { reviewCommand, processIo } = require("../dist/provider/review/commands");
process.exitCode = reviewCommand(process.argv.slice(2), processIo);
