#!/usr/bin/env bash
# Builds the SDK generator, provider/cmd/pulumi-gen-codesec (Go), into the cache the Pulumi CLI is built
# in, under a folder keyed by a digest of its source (go.mod, go.sum, *.go), and links it as
# .tools/bin/pulumi-gen-codesec. A warm run (the build of this source exists) only links: well under a
# second. A change to the source builds anew, under the set-up's build lock (build-lock.sh); the modules
# come from the Go module cache the CLI's build filled, checked against the committed go.sum.
#
#   scripts/build-generator.sh          build when needed, then link (npm run setup)
#   scripts/build-generator.sh --path   print the build of the current source; never builds: fails,
#                                       saying to run `npm run setup`, when there is none (npm run generate, lint)
#
# Environment: PULUMI_CODESEC_CACHE, as for install-pulumi.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/provider/cmd/pulumi-gen-codesec"
cache_root="${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-codesec}"
lock="$cache_root/.build-lock.pid" # shared with install-pulumi.sh: one build at a time per cache
progress_every=30
link="$root/.tools/bin/pulumi-gen-codesec"

log() { printf '[build-generator] %s\n' "$*"; }
warn() { printf '[build-generator] WARNING: %s\n' "$*" >&2; }
# shellcheck source=go-build.sh
source "$root/scripts/go-build.sh" # ensure_go, and (build-lock.sh) acquire_build_lock, release_build_lock

# shellcheck source=sha256.sh
source "$root/scripts/sha256.sh" # require_sha256, sha256_stdin
require_sha256 "[build-generator]" || exit 1

# Without -trimpath: the packages the CLI's build compiled (install-pulumi.sh builds without it) are then
# reused from Go's build cache, and only what the CLI does not use is compiled.
ldflags="-s -w"

# The digest of everything the build reads from the repository (file names and contents), and its flags.
source_digest() {
  (
    printf 'ldflags %s\n' "$ldflags"
    cd "$src"
    for file in go.mod go.sum *.go; do
      printf '%s\n' "$file"
      cat "$file"
    done
  ) | sha256_stdin | cut -c1-16
}

exe="$cache_root/pulumi-gen-codesec/$(source_digest)/pulumi-gen-codesec"

if [ "${1:-}" = "--path" ]; then
  if [ ! -x "$exe" ]; then
    echo "pulumi-gen-codesec is not built for the current source of provider/cmd/pulumi-gen-codesec:" \
      "run \`npm run setup\` (it builds it with Go: https://go.dev/dl/)" >&2
    exit 1
  fi
  echo "$exe"
  exit 0
fi

link_it() {
  mkdir -p "$(dirname "$link")"
  ln -sfn "$exe" "$link"
  log "ready: $link -> $exe"
}

if [ -x "$exe" ]; then
  link_it
  exit 0
fi

if ! ensure_go; then
  warn "no Go toolchain: pulumi-gen-codesec is not built, so \`npm run generate\` and \`npm run lint\` will fail." \
    "Install Go (https://go.dev/dl/) and run \`npm run setup\` again."
  exit 0
fi

trap 'release_build_lock' EXIT
trap 'rc=$?; release_build_lock; exit $rc' INT TERM
acquire_build_lock
if [ ! -x "$exe" ]; then # another set-up may have built it while we waited
  log "building pulumi-gen-codesec (provider/cmd/pulumi-gen-codesec) into $(dirname "$exe")"
  mkdir -p "$(dirname "$exe")"
  started=$SECONDS
  # Outside any go.work; go.mod and go.sum are used as committed (-mod=readonly): a build never edits them.
  # A name of this process's own for the half-written file, as install-pulumi.sh does.
  (cd "$src" && GOWORK=off GOFLAGS="${GOFLAGS:-} -mod=readonly" go build -ldflags "$ldflags" -o "$exe.tmp.$$" .) || {
    rm -f "$exe.tmp.$$"
    exit 1
  }
  mv -f "$exe.tmp.$$" "$exe"
  log "built in $((SECONDS - started))s"
fi
link_it
