#!/usr/bin/env bash
# Benchmarks (`npm run bench`, `npm run bench -- --smoke`): builds the packages (the bench stacks install
# the packed package), then runs bench/run.ts, which prints a markdown table and writes bench/results.json
# (bench/results.smoke.json for --smoke). Scratch files go to .bench-tmp/ unless TMPDIR is set, never to
# a shared /tmp. Loopback only; figures, no assertions about speed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ ! -e node_modules/pulumi-codesec ]; then
  echo "node_modules/pulumi-codesec is missing: run 'npm run setup' first" >&2
  exit 1
fi
if [ -z "${TMPDIR:-}" ]; then
  export TMPDIR="$root/.bench-tmp"
fi
mkdir -p "$TMPDIR"
bash scripts/build.sh
node -r ts-node/register/transpile-only bench/run.ts "$@"
