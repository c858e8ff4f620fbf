#!/usr/bin/env bash
# One-time (idempotent) project set-up, run after `npm ci`: Node (setup-node.sh), the package linked under
# its own name, the build, the Pulumi CLI, the native plugin, the SDK generator and, when asked for
# (--languages python, go, yaml: any of them), their language hosts. Everything it installs goes to .tools/
# (git-ignored) or to a cache outside the clone; the native plugin goes into the clone's own Pulumi home,
# .tools/pulumi-home (tools-env.sh), never into the user's ~/.pulumi. Last, Chromium from the system's
# packages, which needs root (or passwordless sudo) and apt-get; CODESEC_SKIP_CHROMIUM=1 leaves it out
# (the screenshot test then fails, saying how to install it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/setup-node.sh
# shellcheck source=tools-env.sh
source "$root/scripts/tools-env.sh"

# Programs and tests inside this repository load the package by its public name, exactly as a user's
# program does; the dynamic providers' serialized stubs depend on that. `npm ci` links it (the emulator
# workspace depends on pulumi-codesec); this covers an install made without the workspaces.
if [ ! -e node_modules/pulumi-codesec ]; then
  ln -sfn .. node_modules/pulumi-codesec
  echo "[setup] linked node_modules/pulumi-codesec -> repository root"
fi

echo "[setup] building (tsc)"
bash scripts/build.sh

if [ "${CODESEC_SKIP_PULUMI:-}" != "1" ]; then
  bash scripts/install-pulumi.sh
  # The native provider plugin, from its release archive, as a user installs it (scripts/install-plugin.sh),
  # into the clone's own PULUMI_HOME.
  bash scripts/install-plugin.sh
fi
# The policy pack, runnable by that CLI (scripts/setup-policy.sh).
bash scripts/setup-policy.sh
# actionlint, for lint's check of the example workflows.
bash scripts/install-actionlint.sh
# The SDK generator (npm run generate, and lint's freshness check of schema.json and sdk/nodejs).
bash scripts/build-generator.sh
# The Python, Go and YAML language hosts and the Python virtual environment, only when asked for
# (`npm run setup -- --languages python,go,yaml`, CODESEC_LANGUAGES): scripts/setup-languages.sh. `npm test`
# makes them itself, alongside its first phase.
bash scripts/setup-languages.sh "$@"
# Chromium, for the test that photographs the rendered PR comment and for `npm run docs` when the comment
# renders differently (scripts/install-chromium.sh). Last, since it needs root (or passwordless sudo) and
# apt-get: without them it stops the set-up here, saying so, with everything else already installed.
bash scripts/install-chromium.sh
echo "[setup] done"
