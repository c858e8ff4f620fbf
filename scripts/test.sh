#!/usr/bin/env bash
# The whole test suite, in two phases: unit, integration and reliability tests against the emulator
# (with coverage, their files two at a time in mocha's worker processes: .mocharc.js), then the
# end-to-end suite through the real Pulumi CLI (only when the first phase passed: it takes most of the
# time). Ends with one line counting both phases, saying which did not
# run, and exits non-zero when anything failed or did not run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ ! -e node_modules/pulumi-codesec ]; then
  echo "node_modules/pulumi-codesec is missing: run 'npm run setup' first" >&2
  exit 1
fi
# The serialized stubs load dist/ by package name: test what is built from this tree.
bash scripts/build.sh
rm -rf .reports/reliability
counts="$(mktemp -d)"
trap 'rm -rf "$counts"' EXIT
summary() { node -r ts-node/register/transpile-only scripts/test-summary.ts "$@"; }

first="unit, integration and reliability"
e2e="end-to-end"
first_rc=0
CODESEC_TEST_COUNTS="$counts/first.json" c8 --reporter=text-summary mocha || first_rc=$?
if [ "$first_rc" -ne 0 ]; then
  summary "$first=$counts/first.json:$first_rc" "$e2e=not-run:the first phase failed"
  exit 1
fi
# The end-to-end suite runs Python, Go and YAML programs too: their language hosts and the Python virtual
# environment (scripts/setup-languages.sh; once per machine, nothing to do when they exist). A cold build
# takes minutes. It runs here, between the phases and in the foreground, its progress printed as it goes:
# not alongside the first phase, whose tests time retries and deadlines and would share two cores with a
# compiler.
languages_rc=0
languages_start=$SECONDS
bash scripts/setup-languages.sh --languages python,go,yaml || languages_rc=$?
echo "[test] language hosts: scripts/setup-languages.sh took $((SECONDS - languages_start)) s (exit $languages_rc)"
if [ "$languages_rc" -ne 0 ]; then
  summary "$first=$counts/first.json:$first_rc" \
    "$e2e=not-run:the Python, Go and YAML language hosts could not be set up (scripts/setup-languages.sh exited $languages_rc; its output is above)"
  exit 1
fi
e2e_rc=0
CODESEC_TEST_COUNTS="$counts/e2e.json" mocha --config tests/e2e/.mocharc.js || e2e_rc=$?
problems=()
if [ "$e2e_rc" -eq 0 ]; then
  # The reliability tests wrote their sections; docs/reliability.md is rendered from them.
  node -r ts-node/register/transpile-only scripts/reliability-report.ts ||
    problems+=("problem=rendering docs/reliability.md from the run failed")
  if [ -n "${CI:-}" ] && ! git diff --quiet -- docs/reliability.md; then
    git --no-pager diff -- docs/reliability.md >&2
    problems+=("problem=docs/reliability.md differs from what this run proved: run 'npm test' and commit the regenerated file")
  fi
fi
summary "$first=$counts/first.json:$first_rc" "$e2e=$counts/e2e.json:$e2e_rc" ${problems[@]+"${problems[@]}"}
