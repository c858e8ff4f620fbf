#!/usr/bin/env bash
# The Pulumi language hosts for Python and Go programs, and the Python dependencies, for the native
# provider's Python and Go SDKs (sdk/python, sdk/go). Only when a language is asked for, so that the demo's
# set-up (Node.js only) is not slower:
#
#   npm run setup -- --languages python,go,yaml     (or scripts/setup-languages.sh --languages ...)
#   CODESEC_LANGUAGES=python,go,yaml npm run setup
#   CI set (any value): all three, as the end-to-end suite runs a program in each (npm test makes them too)
#
# What it makes:
#   go      pulumi-language-go, built from the package go/pulumi-language-go of github.com/pulumi/pulumi/sdk/v3
#           at v3.66.0: the separate module of later releases (sdk/go/pulumi-language-go/v3) is refused by
#           the module proxy (403), v3.67.x fail the checksum lookup and v3.68.0 no longer has the package.
#   python  pulumi-language-python, from the package python/cmd/pulumi-language-python of sdk/v3 at v3.68.0
#           (later releases: a separate module, refused as above), with the `pulumi-language-python-exec`
#           script of the CLI's own release (sdk/v3 at the CLI's version); and a virtual environment,
#           .tools/python-venv, holding the `pulumi` package from PyPI at the CLI's version and this
#           clone's sdk/python (editable).
#   yaml    pulumi-language-yaml, `go install`ed from github.com/pulumi/pulumi-yaml at v1.25.0 with its own
#           requirements (it does not compile against the CLI's Pulumi packages, v3.259.0).
# The hosts are built once per machine into the CLI's cache folder (install-pulumi.sh), under the set-up's
# build lock (build-lock.sh), with the Go checksum database on, and linked into .tools/bin beside the CLI.
# Both are older than the CLI: they speak an older revision of the language-runtime protocol, which the
# CLI still accepts for preview, up, refresh, import and destroy. The Python host of v3.68.0 does not see
# the project's runtime options (the CLI passes them in a newer way): point PULUMI_PYTHON_CMD at
# .tools/python-venv/bin/python to run a program with the virtual environment's packages.
#
# Environment: PULUMI_VERSION, PULUMI_CODESEC_CACHE and PULUMI_CODESEC_PROGRESS_SECONDS as for
# install-pulumi.sh; CODESEC_LANGUAGES and CI (above).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_bin="$root/.tools/bin"
venv="$root/.tools/python-venv"
cache_root="${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-codesec}"
lock="$cache_root/.build-lock.pid" # shared with install-pulumi.sh and build-generator.sh
progress_every="${PULUMI_CODESEC_PROGRESS_SECONDS:-30}"
case "$progress_every" in '' | *[!0-9]* | 0) progress_every=30 ;; esac
sdkmod=github.com/pulumi/pulumi/sdk/v3
yaml_host=github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v1.25.0
go_host_sdk=v3.66.0
python_host_sdk=v3.68.0

log() { printf '[setup-languages] %s\n' "$*"; }
# shellcheck source=build-lock.sh
source "$root/scripts/build-lock.sh" # acquire_build_lock, release_build_lock

languages="${CODESEC_LANGUAGES:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --languages) languages="${2:-}" && shift 2 ;;
    --languages=*) languages="${1#--languages=}" && shift ;;
    *) echo "usage: setup-languages.sh [--languages python,go,yaml]" >&2 && exit 2 ;;
  esac
done
if [ -z "$languages" ] && [ -n "${CI:-}" ]; then languages=python,go,yaml; fi
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

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; fi
command -v go >/dev/null 2>&1 || { echo "[setup-languages] the language hosts are built with Go: install it (https://go.dev/dl/)" >&2 && exit 1; }

# The CLI's version: PULUMI_VERSION, else @pulumi/pulumi in package-lock.json, as install-pulumi.sh builds it.
version="${PULUMI_VERSION:-$(node -p 'require(process.argv[1]).packages["node_modules/@pulumi/pulumi"].version' "$root/package-lock.json")}"
version="${version#v}"
bin="$cache_root/pulumi-v$version/bin"
export GOWORK=off GOFLAGS="-mod=mod" GOTOOLCHAIN=local

json_field() { # $1 = `go mod download -json` output, $2 = field name
  sed -n "s/^[[:space:]]*\"$2\": \"\(.*\)\",\{0,1\}$/\1/p" <<<"$1" | head -n1
}

# A go.mod's non-local replace directives as `replace ...` lines (sdk/v3's pins golang.org/x/text).
nonlocal_replaces() { # $1 = go.mod
  go mod edit -print "$1" | awk '
    /^replace \($/ { inblock = 1; next }
    inblock && /^\)/ { inblock = 0; next }
    /^replace / { sub(/^replace /, ""); print; next }
    inblock { sub(/^[[:space:]]+/, ""); print }' |
    awk -F' => ' '$2 !~ /^(\.\.?\/|\/)/ { print "replace " $0 }'
}

ticker_pid=""
with_progress() { # $1 = what is being done, then the command
  local what="$1" since=$SECONDS rc=0
  shift
  (while sleep "$progress_every" </dev/null >/dev/null 2>&1; do
    log "still $what ($((SECONDS - since)) s so far)"
  done) &
  ticker_pid=$!
  "$@" || rc=$?
  kill "$ticker_pid" 2>/dev/null || true
  wait "$ticker_pid" 2>/dev/null || true
  ticker_pid=""
  return "$rc"
}

# Builds package $2 of sdk/v3 at release $1 into $bin/$3, as the tool of a wrapper module in the cache
# (`go install pkg@version` refuses a module whose go.mod has replace directives).
build_host() { # $1 = sdk/v3 release, $2 = package path inside sdk/v3, $3 = executable name
  local release="$1" pkg="$sdkmod/$2" out="$bin/$3" json dir
  if [ -x "$out" ]; then
    log "cached $3: $out ($(cat "$out.source" 2>/dev/null || echo 'unknown source'))"
    return
  fi
  json="$(go mod download -json "$sdkmod@$release")" || {
    log "cannot download $sdkmod@$release: $(json_field "$json" Error)"
    return 1
  }
  dir="$cache_root/pulumi-v$version/src/$3"
  rm -rf "$dir" && mkdir -p "$dir"
  {
    printf 'module pulumi-codesec.local/%s\n\ngo 1.24\n\nrequire %s %s\n\n' "$3" "$sdkmod" "$release"
    nonlocal_replaces "$(json_field "$json" GoMod)"
    printf '\ntool %s\n' "$pkg"
  } >"$dir/go.mod"
  log "resolving modules for $pkg@$release (in $dir)"
  with_progress "resolving modules for $3" bash -c 'cd "$1" && go mod tidy' _ "$dir"
  log "compiling $3 (a few minutes cold; a line every ${progress_every} s meanwhile)"
  with_progress "compiling $3" bash -c 'cd "$1" && go build -o "$2" -ldflags "$3" "$4"' _ \
    "$dir" "$out.tmp.$$" "-s -w -X $sdkmod/go/common/version.Version=$release" "$pkg"
  mv -f "$out.tmp.$$" "$out"
  echo "$pkg@$release" >"$out.source"
  log "built $out from $pkg@$release"
}

# pulumi-language-yaml: its module has no replace directives, so `go install module@version` builds it with
# the requirements its go.mod pins, checked against the checksum database like every module here.
build_yaml_host() {
  local out="$bin/pulumi-language-yaml" gobin
  if [ -x "$out" ]; then
    log "cached pulumi-language-yaml: $out ($(cat "$out.source" 2>/dev/null || echo 'unknown source'))"
    return
  fi
  gobin="$bin/.gobin.$$"
  log "compiling $yaml_host (its own Pulumi packages: several minutes cold; a line every ${progress_every} s meanwhile)"
  with_progress "compiling pulumi-language-yaml" env GOBIN="$gobin" GOFLAGS=-mod=readonly \
    go install -ldflags "-s -w" "$yaml_host" || { rm -rf "$gobin" && return 1; }
  mv -f "$gobin/pulumi-language-yaml" "$out" && rm -rf "$gobin"
  echo "$yaml_host" >"$out.source"
  log "built $out from $yaml_host"
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

# .tools/python-venv with `pulumi` at the CLI's version from PyPI, and this clone's Python SDK (sdk/python,
# `pulumi_codesec`) installed editable, as node_modules links the clone's own package: a regenerated SDK is
# used as it is, and its version (the plugin version it asks for) is the pyproject's. Kept while both
# versions match.
python_venv() {
  local python sdk_version installed
  python="$(command -v python3 || true)"
  [ -n "$python" ] || { echo "[setup-languages] Python programs need python3 (3.9 or later) on PATH" >&2 && return 1; }
  sdk_version="$(sed -n 's/^ *version = "\(.*\)"$/\1/p' "$root/sdk/python/pyproject.toml" | head -n1)"
  installed="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pulumi"), m.version("pulumi_codesec"))' 2>/dev/null || true)"
  if [ "$installed" = "$version $sdk_version" ]; then
    log "python venv ready: $venv (pulumi $version, pulumi_codesec $sdk_version from sdk/python)"
    return
  fi
  log "making $venv: pulumi==$version from PyPI, sdk/python editable"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$version" -e "$root/sdk/python"
  log "python venv ready: $venv ($("$venv/bin/python" --version), pulumi $version, pulumi_codesec $sdk_version)"
}

trap 'release_build_lock' EXIT
trap 'rc=$?; release_build_lock; exit $rc' INT TERM
[ -x "$bin/pulumi" ] || { echo "[setup-languages] no Pulumi CLI in $bin: run scripts/install-pulumi.sh first" >&2 && exit 1; }
mkdir -p "$tools_bin"
if { $want_go && [ ! -x "$bin/pulumi-language-go" ]; } || { $want_yaml && [ ! -x "$bin/pulumi-language-yaml" ]; } ||
  { $want_python && { [ ! -x "$bin/pulumi-language-python" ] || [ ! -x "$bin/pulumi-language-python-exec" ]; }; }; then
  acquire_build_lock
fi
if $want_go; then
  build_host "$go_host_sdk" go/pulumi-language-go pulumi-language-go
  ln -sfn "$bin/pulumi-language-go" "$tools_bin/pulumi-language-go"
fi
if $want_yaml; then
  build_yaml_host
  ln -sfn "$bin/pulumi-language-yaml" "$tools_bin/pulumi-language-yaml"
fi
if $want_python; then
  build_host "$python_host_sdk" python/cmd/pulumi-language-python pulumi-language-python
  install_python_exec
  ln -sfn "$bin/pulumi-language-python" "$tools_bin/pulumi-language-python"
  ln -sfn "$bin/pulumi-language-python-exec" "$tools_bin/pulumi-language-python-exec"
  release_build_lock
  python_venv
fi
log "ready: ${languages}"
