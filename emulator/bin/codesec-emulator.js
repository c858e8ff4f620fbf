#!/usr/bin/env node
// The command's entry: a committed file, so that `npm ci` links the command before the first build.
// It runs the built CLI explicitly (inside dist/cli.js, `require.main` is this file, not that module).
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const cli = join(__dirname, "..", "dist", "cli.js");
if (existsSync(cli)) {
  require(cli).runCommandLine();
} else {
  process.stderr.write(
    `codesec-emulator: the emulator is not built (${cli} is missing); ` +
      "run `npm run build` in the pulumi-codesec repository (after `npm ci`, `npm run setup` builds too)\n",
  );
  process.exitCode = 1;
}
