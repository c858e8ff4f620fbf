#!/usr/bin/env bash
# Runs a command with the project's tools first on PATH: .tools/bin (Node when the machine's is unsuitable,
# see setup-node.sh; the Pulumi CLI and its plugins) and node_modules/.bin. npm scripts go through this so
# that every child process sees the same Node and Pulumi, whatever the machine has installed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$root/.tools/bin:$root/node_modules/.bin:$PATH"
# The installed plugin's launcher runs the `node` on PATH unless this names one: the set-up's Node, so a
# stack run from here never falls back to an older machine Node (the launcher says which node it found).
if [ -x "$root/.tools/bin/node" ]; then export PULUMI_CODESEC_NODE="$root/.tools/bin/node"; fi
exec "$@"
