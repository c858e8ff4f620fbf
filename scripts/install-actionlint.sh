#!/usr/bin/env bash
# Builds actionlint (github.com/rhysd/actionlint, through the Go module proxy) into the shared cache and
# links it into .tools/bin, for `npm run lint`'s check of the example workflows. actionlint also runs
# shellcheck on their `run:` scripts when a `shellcheck` is on PATH (Debian/Ubuntu: apt-get install
# shellcheck; it needs root, so the set-up does not install it). Idempotent. The build keeps Go's checksum
# database on whatever the environment says, as every Go build of the set-up (go-build.sh's
# require_checksum_db). A cached binary is reused only while it has the sha256 recorded when it was built.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version=v1.7.7
log() { printf '[install-actionlint] %s\n' "$*"; }
cache="${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-codesec}/actionlint-$version"
# shellcheck source=go-build.sh
source "$root/scripts/go-build.sh" # ensure_go, require_checksum_db
# The sha256 of the binary, recorded when it is built: the cache is shared by every clone and kept for
# months, and a reused binary must be the one that was built, not one changed since.
# shellcheck source=sha256.sh
source "$root/scripts/sha256.sh" # require_sha256, sha256_file, recorded_digest_differs
require_sha256 "[install-actionlint]" || exit 1
record="$cache/actionlint.sha256"
if [ -x "$cache/actionlint" ] && why="$(recorded_digest_differs "$cache/actionlint" "$record")"; then
  if [ "$why" = "no record" ]; then
    log "the cached actionlint has no digest recorded ($record): building it again"
  else
    log "the cached actionlint changed since it was built (its sha256 differs from $record): building it again"
  fi
  rm -f "$cache/actionlint" "$record"
fi
if [ ! -x "$cache/actionlint" ]; then
  ensure_go || {
    echo "[install-actionlint] no Go: install actionlint $version yourself (https://github.com/rhysd/actionlint)" >&2
    exit 1
  }
  require_checksum_db
  log "building actionlint $version"
  GOBIN="$cache" GOFLAGS=-mod=mod GOWORK=off go install "github.com/rhysd/actionlint/cmd/actionlint@$version"
  sha256_file "$cache/actionlint" >"$record"
fi
mkdir -p "$root/.tools/bin"
ln -sfn "$cache/actionlint" "$root/.tools/bin/actionlint"
echo "[install-actionlint] ready: $root/.tools/bin/actionlint"
