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
bash scripts/build.sh
rm -rf .reports/reliability
c8 --reporter=text-summary mocha
mocha --config tests/e2e/.mocharc.json
# The reliability tests wrote their sections; docs/reliability.md is rendered from them.
node -r ts-node/register/transpile-only scripts/reliability-report.ts
if [ -n "${CI:-}" ] && ! git diff --quiet -- docs/reliability.md; then
  git --no-pager diff -- docs/reliability.md >&2
  echo "docs/reliability.md differs from what this run proved: run 'npm test' and commit the regenerated file" >&2
  exit 1
fi
