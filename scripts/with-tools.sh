#!/usr/bin/env bash
# Runs a command in the project's environment (tools-env.sh): .tools/bin and node_modules/.bin first on
# PATH, the set-up's Node for the plugin's launcher, and the clone's own Pulumi home. npm scripts go
# through this so that every child process sees the same Node, Pulumi and plugin build, whatever the
# machine has installed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools-env.sh
source "$root/scripts/tools-env.sh"
exec "$@"
