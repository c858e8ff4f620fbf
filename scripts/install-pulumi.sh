#!/usr/bin/env bash
# Makes the Pulumi CLI (major 3) available as .tools/bin/pulumi, with the two plugins it expects next
# to itself: the Node.js language host (pulumi-language-nodejs, needed to run a program from a project
# directory; Automation API inline programs do without it) and the dynamic-provider plugin
# (pulumi-resource-pulumi-nodejs). Idempotent; a warm re-run takes well under a second.
#
#   1. a suitable `pulumi` (.tools/bin first, then PATH) with its language host is used as is;
#   2. otherwise, with Go, the CLI is built from Go modules (through GOPROXY) into a cache outside the
#      clone, shared by the clones on the machine:
#        ${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-codesec}/pulumi-vX.Y.Z/bin
#   3. otherwise it prints how to install the CLI and fails.
#
# Environment:
#   PULUMI_VERSION          CLI version to build (default: @pulumi/pulumi in package-lock.json, else
#                           package.json); when set, an existing CLI must be exactly that version.
#   PULUMI_CODESEC_CACHE    cache folder (see above).
#   PULUMI_NODEJS_HOST_SDK  sdk/v3 release whose language host is the fallback (default v3.68.0), or
#                           "none"; see build_language_host.
#   PULUMI_CODESEC_PROGRESS_SECONDS  seconds between the progress lines of a long step (default 30).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_bin="$root/.tools/bin"
cache_root="${PULUMI_CODESEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-codesec}"
lock="$cache_root/.build-lock.pid" # see acquire_build_lock
progress_every="${PULUMI_CODESEC_PROGRESS_SECONDS:-30}"
case "$progress_every" in '' | *[!0-9]* | 0) progress_every=30 ;; esac
want_major=3
pkgmod=github.com/pulumi/pulumi/pkg/v3
sdkmod=github.com/pulumi/pulumi/sdk/v3
hostmod=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
# The newest sdk/v3 release that still contains the language host as a package (from v3.69.0 on it
# is a module of its own, hostmod).
host_sdk="${PULUMI_NODEJS_HOST_SDK:-v3.68.0}"

log() { printf '[install-pulumi] %s\n' "$*"; }
warn() { printf '[install-pulumi] WARNING: %s\n' "$*" >&2; }
# shellcheck source=go-build.sh
source "$root/scripts/go-build.sh" # with_progress, go_build_traps, build_wrapped, wanted_version, ... and the lock

manual_instructions() {
  cat >&2 <<'EOF'
[install-pulumi] Install the Pulumi CLI (v3) yourself, then re-run this script:
[install-pulumi]   curl -fsSL https://get.pulumi.com | sh            # official installer, into ~/.pulumi/bin
[install-pulumi]   brew install pulumi/tap/pulumi                    # macOS / Linuxbrew
[install-pulumi]   winget install pulumi  or  choco install pulumi   # Windows
EOF
  command -v go >/dev/null 2>&1 ||
    echo "[install-pulumi] or install Go (https://go.dev/dl/) and re-run this script to build it from source." >&2
}

# What `pulumi version` prints (e.g. v3.259.0), or nothing.
version_of() { "$1" version 2>/dev/null | head -n1 | tr -d '[:space:]' || true; }

suitable() { # $1 = version printed by the CLI
  local v="${1#v}"
  [ "${v%%.*}" = "$want_major" ] || return 1
  [ -z "${PULUMI_VERSION:-}" ] || [ "$v" = "${PULUMI_VERSION#v}" ]
}

# The dynamic-provider plugin is a shell script shipped in the @pulumi/pulumi npm package.
dynamic_provider_script() {
  local pkg="$root/node_modules/@pulumi/pulumi" c
  for c in "$pkg/pulumi-resource-pulumi-nodejs" "$pkg/dist/pulumi-resource-pulumi-nodejs"; do
    [ -f "$c" ] && { echo "$c"; return; }
  done
  if [ -d "$pkg" ]; then find "$pkg" -maxdepth 3 -name pulumi-resource-pulumi-nodejs -type f | head -n1; fi
}

# The CLI looks for its bundled plugins both on PATH and next to its symlink-resolved executable, and
# warns when the two differ: so the plugins sit next to the real binary and .tools/bin links to them.
link_into_tools() { # $1 = pulumi executable
  local exe="$1" dir p script
  dir="$(dirname "$(real_path "$exe")")"
  mkdir -p "$tools_bin"
  [ "$exe" = "$tools_bin/pulumi" ] || ln -sfn "$exe" "$tools_bin/pulumi"
  script="$(dynamic_provider_script)"
  if [ "${dir#"$(physical_dir "$cache_root")"/}" != "$dir" ] && [ -n "$script" ] &&
    ! cmp -s "$script" "$dir/pulumi-resource-pulumi-nodejs"; then
    install -m 0755 "$script" "$dir/pulumi-resource-pulumi-nodejs" # our own build: keep it in sync
  fi
  for p in pulumi-language-nodejs pulumi-resource-pulumi-nodejs; do
    if [ -x "$dir/$p" ]; then
      [ "$dir" = "$tools_bin" ] || ln -sfn "$dir/$p" "$tools_bin/$p"
    elif [ "$p" = pulumi-resource-pulumi-nodejs ] && [ -n "$script" ]; then
      ln -sfn "$script" "$tools_bin/$p"
      warn "$p is not next to $exe: linked node_modules' copy (pulumi will warn that it comes from \$PATH)"
    else
      if [ -L "$tools_bin/$p" ]; then rm -f "$tools_bin/$p"; fi
      warn "no $p next to $exe"
    fi
  done
  log "ready: $tools_bin/pulumi -> $(real_path "$tools_bin/pulumi") ($(version_of "$tools_bin/pulumi"))"
}

# ---- 1. an existing CLI -------------------------------------------------------------------------
fallback_cli="" # suitable, but without a language host next to it
for candidate in "$tools_bin/pulumi" "$(command -v pulumi 2>/dev/null || true)"; do
  if [ -z "$candidate" ] || [ ! -x "$candidate" ]; then continue; fi
  v="$(version_of "$candidate")"
  if [ -z "$v" ] || ! suitable "$v"; then
    log "ignoring $candidate (version '${v:-unknown}', want ${PULUMI_VERSION:-major $want_major})"
    continue
  fi
  if [ -x "$(dirname "$(real_path "$candidate")")/pulumi-language-nodejs" ]; then
    log "using pulumi $v ($candidate)"
    locked="$(wanted_version 2>/dev/null || true)"
    if [ -n "$locked" ] && [ "v$locked" != "$v" ]; then
      log "note: @pulumi/pulumi is $locked; PULUMI_VERSION=$locked $0 builds the matching CLI"
    fi
    link_into_tools "$candidate"
    exit 0
  fi
  log "pulumi $v ($candidate) has no Node.js language host next to it"
  fallback_cli="${fallback_cli:-$candidate}"
done

# ---- 3. no way to build it ----------------------------------------------------------------------
if ! ensure_go; then
  if [ -n "$fallback_cli" ]; then
    warn "no Go to build a language host: using $fallback_cli as is (only Automation API inline programs will run)"
    link_into_tools "$fallback_cli"
    exit 0
  fi
  log "no suitable pulumi on PATH and no Go toolchain to build one"
  manual_instructions
  exit 1
fi

# ---- 2. build from Go modules -------------------------------------------------------------------
version="$(wanted_version)"
cache="$cache_root/pulumi-v$version"
bin="$cache/bin"
after_build_exit() { # $1 = the script's exit status (go-build.sh's EXIT trap)
  local rc="$1"
  if [ "$rc" -ne 0 ]; then
    log "could not build pulumi v$version from Go modules (exit $rc)"
    manual_instructions
  fi
}
go_build_traps

# Outside any go.work; -mod=mod lets the wrapper modules below record what they resolve.
export GOWORK=off GOFLAGS="-mod=mod ${GOFLAGS:-}"
require_checksum_db

# The require/replace lines that pin a wrapper module to the release: pkg/v3 and sdk/v3 at $version
# (every version of both replaced by it) plus the other non-local replaces of the go.mod in $1.
# $2, when given, is one more requirement ("module version").
release_module_lines() {
  printf 'require (\n'
  [ -z "${2:-}" ] || printf '\t%s\n' "$2"
  printf '\t%s v%s\n\t%s v%s\n)\n\n' "$pkgmod" "$version" "$sdkmod" "$version"
  printf 'replace %s => %s v%s\n' "$pkgmod" "$pkgmod" "$version" "$sdkmod" "$sdkmod" "$version"
  nonlocal_replaces "$1" "$pkgmod|$sdkmod"
}

version_ldflags() { echo "-s -w -X $sdkmod/go/common/version.Version=$1"; }

build_cli() {
  local exe="$bin/pulumi" gomod
  if [ -x "$exe" ] && [ "$(version_of "$exe")" = "v$version" ]; then
    log "cached pulumi v$version: $exe"
    return
  fi
  log "building pulumi v$version from $pkgmod (cold: ~1.6 GB of modules, a few minutes of compiling)"
  gomod="$(json_field "$pkg_json" GoMod)"
  build_wrapped "$cache/src/pulumi" "$(go_directive "$gomod")" "$pkgmod/cmd/pulumi" "$exe" \
    "$(version_ldflags "v$version")" < <(release_module_lines "$gomod") || return 1
  log "built $exe ($(version_of "$exe"))"
}

# The release's language host is the untagged module $hostmod, so it can only be addressed by the
# pseudo-version of the release commit; some proxies refuse that (403 "This module version is not
# available"). The fallback is the language host package of an older sdk/v3 release: it speaks an
# older revision of the language-runtime protocol, which the CLI still accepts (it falls back from
# GetRequiredPackages to GetRequiredPlugins) for preview/up/destroy of JavaScript and TypeScript
# programs, dynamic providers included.
build_language_host() {
  local out="$bin/pulumi-language-nodejs" info stamp hash pseudo json gomod dir
  if [ -x "$out" ]; then
    log "cached Node.js language host: $out ($(cat "$out.source" 2>/dev/null || echo 'unknown source'))"
    return
  fi
  info="$(json_field "$pkg_json" Info)"
  stamp="$(sed -n 's/.*"Time": *"\([^"]*\)".*/\1/p' "$info" | tr -dc 0-9 | cut -c1-14)"
  hash="$(json_field "$pkg_json" Hash | cut -c1-12)"
  pseudo="v3.0.0-$stamp-$hash"
  if [ -n "$stamp" ] && [ -n "$hash" ] && json="$(go mod download -json "$hostmod@$pseudo" 2>/dev/null)"; then
    gomod="$(json_field "$json" GoMod)"
    build_wrapped "$cache/src/pulumi-language-nodejs" "$(go_directive "$gomod")" "$hostmod" "$out" \
      "$(version_ldflags "v$version")" < <(release_module_lines "$gomod" "$hostmod $pseudo") || return 1
    echo "$hostmod@$pseudo" >"$out.source"
    log "built $out from $hostmod@$pseudo"
    return
  fi
  log "the proxy has no $hostmod@$pseudo ($(json_field "${json:-}" Error | sed 's/.*server response: //'))"
  if [ "$host_sdk" = none ]; then return 1; fi

  log "falling back to the language host of $sdkmod@$host_sdk"
  json="$(go mod download -json "$sdkmod@$host_sdk")" || {
    warn "cannot download $sdkmod@$host_sdk: $(json_field "$json" Error)"
    return 1
  }
  dir="$(json_field "$json" Dir)"
  gomod="$(json_field "$json" GoMod)"
  if [ ! -d "$dir/nodejs/cmd/pulumi-language-nodejs" ]; then
    warn "$sdkmod@$host_sdk has no nodejs/cmd/pulumi-language-nodejs (PULUMI_NODEJS_HOST_SDK must be <= v3.68.0)"
    return 1
  fi
  build_wrapped "$cache/src/pulumi-language-nodejs" "$(go_directive "$gomod")" \
    "$sdkmod/nodejs/cmd/pulumi-language-nodejs" "$out" "$(version_ldflags "$host_sdk")" <<EOF || return 1
require $sdkmod $host_sdk

$(nonlocal_replaces "$gomod" "$sdkmod")
EOF
  echo "$sdkmod@$host_sdk/nodejs/cmd/pulumi-language-nodejs (fallback)" >"$out.source"
  log "built $out from $sdkmod@$host_sdk (older language host; see build_language_host in this script)"
}

acquire_build_lock

pkg_json="$(go mod download -json "$pkgmod@v$version")" || {
  log "cannot download $pkgmod@v$version: $(json_field "$pkg_json" Error)"
  exit 1
}
mkdir -p "$bin"
build_cli
build_language_host ||
  warn "no Node.js language host: only Automation API inline programs will run; 'pulumi up' in a project directory fails with \"no language plugin 'pulumi-language-nodejs' found\""
link_into_tools "$bin/pulumi"
