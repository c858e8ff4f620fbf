#!/usr/bin/env bash
# Makes the generated Go SDK in $1 (sdk/go, or generation's scratch copy) a module that builds on its own:
# the `go` line of the Pulumi Go SDK release it requires (whose go.mod asks for a newer Go than the
# generator's placeholder), then `go mod tidy`, which adds the requirements the generated code imports
# directly (github.com/blang/semver) and writes go.sum. The checksum database is on and the Go toolchain
# the go line asks for is used (go-build.sh), so every module is the one the database knows. The result
# depends only on the required release: scripts/generate.ts runs this for `npm run generate` and for
# lint's freshness check alike.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_root="${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-codesec}" # go-build.sh's lock (unused here)
lock="$cache_root/.build-lock.pid"
progress_every=30
log() { printf '[tidy-go-sdk] %s\n' "$*" >&2; }
# shellcheck source=go-build.sh
source "$root/scripts/go-build.sh" # ensure_go, require_checksum_db, use_go_for, json_field, go_directive

dir="${1:?usage: tidy-go-sdk.sh <generated Go SDK folder>}"
sdkmod=github.com/pulumi/pulumi/sdk/v3
ensure_go || { log "the Go SDK's go.mod and go.sum are made with Go: install it (https://go.dev/dl/)" && exit 1; }
export GOWORK=off GOFLAGS=-mod=mod
require_checksum_db

release="$(go mod edit -print "$dir/go.mod" | sed -n "s|^require $sdkmod \(v[^ ]*\)$|\1|p")"
[ -n "$release" ] || { log "$dir/go.mod requires no $sdkmod" && exit 1; }
json="$(go mod download -json "$sdkmod@$release")" || {
  log "cannot download $sdkmod@$release: $(json_field "$json" Error)"
  exit 1
}
gover="$(go_directive "$(json_field "$json" GoMod)")"
use_go_for "$gover"
go mod edit -go="$gover" "$dir/go.mod"
(cd "$dir" && go mod tidy)
