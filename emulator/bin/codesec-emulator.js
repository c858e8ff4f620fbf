#!/usr/bin/env node
// The command's entry: a committed file, so that `npm ci` links the command before the first build.
"use strict";
require("../dist/cli.js");
