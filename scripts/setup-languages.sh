#!/usr/bin/env bash
# The Pulumi language hosts for Python and Go programs, and the Python dependencies, for the native
# provider's Python and Go SDKs (sdk/python, sdk/go). Only when a language is asked for, so that the demo's
# set-up (Node.js only) is not slower:
#
#   npm run setup -- --languages python,go,yaml     (or scripts/setup-languages.sh --languages ...)
#   CODESEC_LANGUAGES=python,go,yaml npm run setup
#   npm test makes all three (the end-to-end suite runs a program in each), between its two phases
#   (scripts/test.sh), and finds them made when they are: CI (.ci/run) makes them while lint runs, so its
#   `npm run setup` makes none, and a demo's set-up is not slowed by them
# Each language's set-up makes only what that language needs. With Go, it also compiles sdk/go and its
# requirements into Go's build cache (compile_go_sdk, best effort).
#
# A host that sits next to the CLI in use (.tools/bin/pulumi, else `pulumi` on PATH) is linked as it is:
# official CLI releases ship the Python, Go and YAML hosts. Only a missing one is made, as follows:
#   go      pulumi-language-go, built from the package go/pulumi-language-go of github.com/pulumi/pulumi/sdk/v3
#           at v3.66.0: the separate module of later releases (sdk/go/pulumi-language-go/v3) is refused by
#           the module proxy (403), v3.67.x fail the checksum lookup and v3.68.0 no longer has the package.
#   python  pulumi-language-python, from the package python/cmd/pulumi-language-python of sdk/v3 at v3.68.0
#           (later releases: a separate module, refused as above), with the `pulumi-language-python-exec`
#           script of the CLI's own release (sdk/v3 at the CLI's version).
#   yaml    pulumi-language-yaml, `go install`ed from github.com/pulumi/pulumi-yaml at v1.25.0 with its own
#           requirements (it does not compile against the CLI's Pulumi packages, v3.259.0).
# Python also gets a virtual environment, .tools/python-venv, holding the `pulumi` package from PyPI at the
# CLI's version and this clone's sdk/python (installed from a copy, so that the clone stays clean; made
# again when sdk/python changes).
# The hosts made here are made once per machine, into the cache folder of the CLI's version
# (${PULUMI_CODESEC_CACHE:-~/.cache/pulumi-codesec}/pulumi-vX.Y.Z/bin, where install-pulumi.sh builds a CLI,
# whether or not the CLI in use is that one; without any CLI, the version is @pulumi/pulumi's), under the
# set-up's build lock (build-lock.sh), with the Go checksum database on and the Go toolchain each module
# asks for (go-build.sh), and linked into .tools/bin beside the CLI. They are older than the CLI: they
# speak an older revision of the language-runtime protocol, which the CLI still accepts for preview, up,
# refresh, import and destroy. The Python host of v3.68.0 does not see the project's runtime options (the
# CLI passes them in a newer way): point PULUMI_PYTHON_CMD at .tools/python-venv/bin/python to run a
# program with the virtual environment's packages.
#
# Environment: PULUMI_CODESEC_CACHE and PULUMI_CODESEC_PROGRESS_SECONDS as for install-pulumi.sh
# (PULUMI_VERSION too, when there is no CLI); CODESEC_LANGUAGES (above).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_bin="$root/.tools/bin"
venv="$root/.tools/python-venv"
cache_root="${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-codesec}"
lock="$cache_root/.build-lock.pid" # shared with install-pulumi.sh and build-generator.sh
progress_every="${PULUMI_CODESEC_PROGRESS_SECONDS:-30}"
case "$progress_every" in '' | *[!0-9]* | 0) progress_every=30 ;; esac
sdkmod=github.com/pulumi/pulumi/sdk/v3
yaml_module=github.com/pulumi/pulumi-yaml
yaml_release=v1.25.0
go_host_sdk=v3.66.0
python_host_sdk=v3.68.0

log() { printf '[setup-languages] %s\n' "$*"; }
# shellcheck source=go-build.sh
source "$root/scripts/go-build.sh" # with_progress, go_build_traps, build_wrapped, use_go_for, ... and the lock

languages="${CODESEC_LANGUAGES:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --languages) languages="${2:-}" && shift 2 ;;
    --languages=*) languages="${1#--languages=}" && shift ;;
    *) echo "usage: setup-languages.sh [--languages python,go,yaml]" >&2 && exit 2 ;;
  esac
done
want_go=false
want_python=false
want_yaml=false
for language in ${languages//,/ }; do
  case "$language" in
    go) want_go=true ;;
    python) want_python=true ;;
    yaml) want_yaml=true ;;
    *) echo "[setup-languages] unknown language '$language' (python, go, yaml)" >&2 && exit 2 ;;
  esac
done
if ! $want_go && ! $want_python && ! $want_yaml; then exit 0; fi

ensure_go || { echo "[setup-languages] the language hosts are built with Go: install it (https://go.dev/dl/)" >&2 && exit 1; }

# The CLI in use: the one install-pulumi.sh linked into .tools/bin (its own build, or an official CLI it
# found on PATH), else one on PATH (a set-up with CODESEC_SKIP_PULUMI=1).
cli=""
for candidate in "$tools_bin/pulumi" "$(command -v pulumi 2>/dev/null || true)"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then cli="$candidate" && break; fi
done
if [ -n "$cli" ]; then
  cli_dir="$(dirname "$(real_path "$cli")")"
  version="$("$cli" version 2>/dev/null | head -n1 | tr -d '[:space:]' || true)"
  [ -n "$version" ] || { log "cannot tell the version of $cli ('pulumi version' printed nothing)" >&2 && exit 1; }
else
  cli_dir=""
  version="$(wanted_version)"
  log "no Pulumi CLI in .tools/bin or on PATH: making the hosts for pulumi v${version#v} (@pulumi/pulumi's version)"
fi
version="${version#v}"
bin="$cache_root/pulumi-v$version/bin"

have_lock=false
lock_for_build() {
  if ! $have_lock; then
    acquire_build_lock
    have_lock=true
  fi
}
unlock() {
  release_build_lock
  have_lock=false
}

# Links the executable $1 into .tools/bin: the one next to the CLI's real binary when there is one (an
# official CLI's own hosts), else the cache's, which the command after $1 makes when it is missing.
provide() { # $1 = executable name, then the command that makes $bin/$1
  local name="$1"
  shift
  if [ -n "$cli_dir" ] && [ "$cli_dir" != "$(physical_dir "$bin")" ] && [ -x "$cli_dir/$name" ]; then
    log "using $cli_dir/$name (next to the CLI)"
    [ "$cli_dir" = "$(physical_dir "$tools_bin")" ] || ln -sfn "$cli_dir/$name" "$tools_bin/$name"
    return
  fi
  if [ ! -x "$bin/$name" ]; then
    lock_for_build
    mkdir -p "$bin"
  fi
  "$@"
  ln -sfn "$bin/$name" "$tools_bin/$name"
}

# Builds package $2 of sdk/v3 at release $1 into $bin/$3, as the tool of a wrapper module in the cache
# (`go install pkg@version` refuses a module whose go.mod has replace directives).
build_host() { # $1 = sdk/v3 release, $2 = package path inside sdk/v3, $3 = executable name
  local release="$1" pkg="$sdkmod/$2" out="$bin/$3" json gomod
  if [ -x "$out" ]; then
    log "cached $3: $out ($(cat "$out.source" 2>/dev/null || echo 'unknown source'))"
    return
  fi
  json="$(go mod download -json "$sdkmod@$release")" || {
    log "cannot download $sdkmod@$release: $(json_field "$json" Error)"
    return 1
  }
  gomod="$(json_field "$json" GoMod)"
  build_wrapped "$cache_root/pulumi-v$version/src/$3" "$(go_directive "$gomod")" "$pkg" "$out" \
    "-s -w -X $sdkmod/go/common/version.Version=$release" <<EOF || return 1
require $sdkmod $release

$(nonlocal_replaces "$gomod" "$sdkmod")
EOF
  echo "$pkg@$release" >"$out.source"
  log "built $out from $pkg@$release"
}

# pulumi-language-yaml: its module has no replace directives, so `go install module@version` builds it with
# the requirements its go.mod pins, checked against the checksum database like every module here, with
# the Go its go.mod asks for.
build_yaml_host() {
  local out="$bin/pulumi-language-yaml" host="$yaml_module/cmd/pulumi-language-yaml@$yaml_release" json gobin
  if [ -x "$out" ]; then
    log "cached pulumi-language-yaml: $out ($(cat "$out.source" 2>/dev/null || echo 'unknown source'))"
    return
  fi
  json="$(go mod download -json "$yaml_module@$yaml_release")" || {
    log "cannot download $yaml_module@$yaml_release: $(json_field "$json" Error)"
    return 1
  }
  use_go_for "$(go_directive "$(json_field "$json" GoMod)")"
  gobin="$bin/.gobin.$$"
  log "compiling $host (its own Pulumi packages: several minutes cold; a line every ${progress_every} s meanwhile)"
  with_progress "compiling pulumi-language-yaml" env GOBIN="$gobin" GOFLAGS=-mod=readonly \
    go install -ldflags "-s -w" "$host" || { rm -rf "$gobin" && return 1; }
  mv -f "$gobin/pulumi-language-yaml" "$out" && rm -rf "$gobin"
  echo "$host" >"$out.source"
  log "built $out from $host"
}

# The CLI release's `pulumi-language-python-exec` (the script the Python host runs a program with).
install_python_exec() {
  local out="$bin/pulumi-language-python-exec" json script
  [ -x "$out" ] && return
  json="$(go mod download -json "$sdkmod@v$version")"
  script="$(json_field "$json" Dir)/python/cmd/pulumi-language-python-exec"
  [ -f "$script" ] || { log "no $script in $sdkmod@v$version" && return 1; }
  install -m 0755 "$script" "$out.tmp.$$" && mv -f "$out.tmp.$$" "$out"
  log "installed $out from $sdkmod@v$version"
}

# A checksum of sdk/python's files, names included (cksum: POSIX, on every system).
python_sdk_sum() {
  (
    cd "$root/sdk/python"
    find . -type f ! -path '*/__pycache__/*' ! -name '*.pyc' | LC_ALL=C sort | while IFS= read -r file; do
      printf '%s\n' "$file"
      cat "$file"
    done
  ) | cksum | tr -s ' ' '-'
}

# .tools/python-venv with `pulumi` at the CLI's version from PyPI, and this clone's Python SDK (sdk/python,
# `pulumi_codesec`; its version is the plugin version it asks for). The SDK is installed from a copy: an
# install from sdk/python itself, editable or not, writes its build files (pulumi_codesec.egg-info, build/)
# into the clone. Kept while the CLI's version and sdk/python's files are the ones it was made with.
python_venv() {
  local python stamp want copy
  python="$(command -v python3 || true)"
  [ -n "$python" ] || { echo "[setup-languages] Python programs need python3 (3.9 or later) on PATH" >&2 && return 1; }
  stamp="$venv/.codesec-made-with"
  want="pulumi $version, sdk/python $(python_sdk_sum)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null || true)" = "$want" ]; then
    log "python venv ready: $venv ($want)"
    return
  fi
  log "making $venv: pulumi==$version from PyPI, pulumi_codesec from sdk/python"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  copy="$(mktemp -d)"
  cp -R "$root/sdk/python/." "$copy/"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$version" "$copy" ||
    { rm -rf "$copy" && return 1; }
  rm -rf "$copy"
  echo "$want" >"$stamp"
  log "python venv ready: $venv ($("$venv/bin/python" --version), $want)"
}

# sdk/go and what it requires (the Pulumi Go SDK its go.mod names, over 500 packages), compiled once into
# Go's build cache: a Go program's first `pulumi up` then compiles only the program (`go build` caches every
# package it compiles; nothing to do when the cache has them). Compiled, not vetted: `go vet` would also
# compute its facts about every package, minutes more that a program's `pulumi up` does not need (the
# end-to-end test that vets the docs examples computes them itself). With its own go.mod and go.sum,
# read-only, and the Go it asks for, as a program that requires it builds it (the cache is per toolchain).
# Only a head start: when it fails (no network for the modules, an SDK that does not compile), set-up goes
# on, and the Go programs that need the SDK report the failure themselves.
compile_go_sdk() {
  local toolchain
  log "compiling sdk/go and its requirements into Go's build cache ($(go env GOCACHE))"
  if toolchain="$(use_go_for "$(go_directive "$root/sdk/go/go.mod")" && printf %s "$GOTOOLCHAIN")" &&
    with_progress "compiling sdk/go and its requirements" in_dir "$root/sdk/go" \
      env GOTOOLCHAIN="$toolchain" GOFLAGS=-mod=readonly go build ./...; then
    log "sdk/go compiled"
  else
    log "WARNING: sdk/go could not be compiled into Go's build cache (the output above says why);" \
      "the hosts are ready, and a Go program that requires sdk/go will report the same failure" >&2
  fi
}

go_build_traps
export GOWORK=off GOFLAGS="-mod=mod"
require_checksum_db
mkdir -p "$tools_bin"
if $want_go; then
  provide pulumi-language-go build_host "$go_host_sdk" go/pulumi-language-go pulumi-language-go
fi
if $want_yaml; then
  provide pulumi-language-yaml build_yaml_host
fi
if $want_python; then
  provide pulumi-language-python build_host "$python_host_sdk" python/cmd/pulumi-language-python pulumi-language-python
  provide pulumi-language-python-exec install_python_exec
  unlock
  python_venv
fi
if $want_go; then
  unlock
  compile_go_sdk
fi
log "ready: ${languages}"
