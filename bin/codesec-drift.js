#!/usr/bin/env node
"use strict";
// codesec-drift: see provider/review/commands.ts (docs/review-and-drift.md).
const { driftCommand, processIo } = require("../dist/provider/review/commands");
process.exitCode = driftCommand(process.argv.slice(2), processIo);
