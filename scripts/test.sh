#!/usr/bin/env bash
# The whole test suite: build (the serialized stubs load dist/ by package name), unit and integration
# tests against the emulator, then the end-to-end lifecycle suite through the real Pulumi CLI.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ ! -e node_modules/pulumi-codesec ]; then
  echo "node_modules/pulumi-codesec is missing: run 'npm run setup' first" >&2
  exit 1
fi
tsc -p tsconfig.build.json
c8 --reporter=text-summary mocha
mocha --config tests/e2e/.mocharc.json
