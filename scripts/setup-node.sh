#!/usr/bin/env bash
# Makes a suitable Node available as .tools/bin/node: major >= 22 (@pulumi/pulumi needs it) and free of
# the util.inspect loop below. When neither .tools/bin/node nor the machine's node is suitable, install
# the official binary that the npm registry ships in its per-platform `node-<os>-<arch>` package (the
# `node` meta-package only fetches that package in a postinstall script, which npm may refuse to run):
# the exact release node_release names (every Node 22 release so far has the loop), its tarball checked
# against the sha512 recorded below (the registry's `dist.integrity` of that version) before it is
# unpacked. NODE_VERSION=X.Y.Z with NODE_INTEGRITY=sha512-... installs another release. An installed
# .tools/bin/node is reused only while its binary has the sha256 recorded at its install; else it is
# installed again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/.tools/bin"
want_major=22
node_release=24.21.0
# `npm view node-<os>-<arch>@<node_release> dist.integrity`; the registry has no darwin package of it.
recorded_integrity() { # $1 = os-arch
  case "$1" in
    linux-x64) echo 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' ;;
    linux-arm64) echo 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==' ;;
  esac
}
log() { printf '[setup-node] %s\n' "$*"; }

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# Some Node releases (20.19.6 and later 20.x, 22.20.0 to at least 22.23.3, 24.x before 24.19.0) loop in
# util.inspect(error, { colors: true }) on a stack frame in `node_modules/@scope/<file>`, building a string
# until V8 refuses it (nodejs/node#64011). @pulumi/pulumi prints a program's unhandled errors that way, and
# an error thrown inside an apply has such a frame (its map names @pulumi/output.ts): `pulumi preview` then
# takes about 110 s to report it. The check counts how often the loop would style the module name
# (once when fixed) and stops it at once, so it takes no longer than starting node.
inspect_loops() { # $1 = node
  ! "$1" -e '
    const util = require("node:util");
    const style = util.inspect.styles.module;
    let uses = 0;
    Object.defineProperty(util.inspect.styles, "module", {
      configurable: true,
      get() {
        if (++uses > 10) throw new Error("loops");
        return style;
      },
    });
    const error = new Error("check");
    error.stack = "Error: check\n    at f (/p/node_modules/@scope/file.js:1:1)";
    util.inspect(error, { colors: true });
  ' 2>/dev/null
}

suitable() { # $1 = node
  [ "$(major_of "$1")" -ge "$want_major" ] || return 1
  if inspect_loops "$1"; then
    log "not using $1 ($("$1" --version)): its util.inspect loops on some stack traces (nodejs/node#64011), which delays some error reports of a Pulumi program by minutes"
    return 1
  fi
}

# The sha256 of the binary .tools/bin/node leads to, recorded beside it when it is installed (after its
# package's integrity check): a reused node is the one that was checked, not one changed since.
# shellcheck source=sha256.sh
source "$root/scripts/sha256.sh" # require_sha256, sha256_file, recorded_digest_differs
require_sha256 "[setup-node]" || exit 1
digest_record="$root/.tools/node/installed.sha256"

mkdir -p "$bin"
if [ -x "$bin/node" ]; then
  target="$(readlink -f "$bin/node")"
  if why="$(recorded_digest_differs "$target" "$digest_record")"; then
    if [ "$why" = "no record" ]; then
      log ".tools/bin/node has no digest recorded ($digest_record: installed by hand or by an older set-up): not using it (removed); installing a checked one"
    else
      log ".tools/bin/node's binary ($target) changed since its install (its sha256 differs from $digest_record): not using it (removed)"
    fi
    rm -f "$bin/node"
  elif suitable "$bin/node"; then
    log "using $("$bin/node" --version) from .tools/bin"
    exit 0
  fi
  rm -f "$bin/node" # first on PATH (with-tools.sh): it must not hide the machine's node
fi
if command -v node >/dev/null 2>&1 && suitable "$(command -v node)"; then
  log "using the machine's node $(node --version) ($(command -v node))"
  exit 0
fi

os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "[setup-node] unsupported CPU $(uname -m): install Node >= $want_major yourself" >&2; exit 1 ;;
esac
if [ -n "${NODE_VERSION:-}" ]; then
  release="$NODE_VERSION"
  [[ "$release" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    { echo "[setup-node] NODE_VERSION=$release is not an exact release (X.Y.Z)" >&2 && exit 1; }
  integrity="${NODE_INTEGRITY:-}"
  [ -n "$integrity" ] || {
    echo "[setup-node] NODE_VERSION=$release needs NODE_INTEGRITY, its sha512 from the registry:" \
      "npm view node-$os-$arch@$release dist.integrity" >&2
    exit 1
  }
else
  release="$node_release"
  integrity="$(recorded_integrity "$os-$arch")"
  [ -n "$integrity" ] || {
    echo "[setup-node] the npm registry has no node-$os-$arch@$release: install Node >= $want_major yourself" >&2
    exit 1
  }
fi
pkg="node-$os-$arch@$release"
command -v openssl >/dev/null 2>&1 || { echo "[setup-node] checking $pkg's integrity needs openssl on PATH" >&2 && exit 1; }
log "machine node is $(node --version 2>/dev/null || echo 'missing'); installing $pkg from the npm registry into .tools/node"
download="$(mktemp -d)"
trap 'rm -rf "$download"' EXIT
tarball="$download/$(cd "$download" && npm pack "$pkg" --silent --pack-destination "$download" | tail -n1)"
[ -f "$tarball" ] || { echo "[setup-node] npm pack $pkg gave no tarball" >&2 && exit 1; }
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | openssl base64 -A)"
if [ "$actual" != "$integrity" ]; then
  echo "[setup-node] $pkg does not match its recorded integrity: expected $integrity, got $actual; nothing installed" >&2
  exit 1
fi
rm -rf "$root/.tools/node"
mkdir -p "$root/.tools/node"
tar -xzf "$tarball" -C "$root/.tools/node"
mv "$root/.tools/node/package" "$root/.tools/node/node-$os-$arch"
ln -sfn "$root/.tools/node/node-$os-$arch/bin/node" "$bin/node"
sha256_file "$root/.tools/node/node-$os-$arch/bin/node" >"$digest_record"
log "installed $("$bin/node" --version) as .tools/bin/node ($pkg, $integrity)"
if inspect_loops "$bin/node"; then
  log "WARNING: this node's util.inspect loops on some stack traces (nodejs/node#64011): a Pulumi program's errors take minutes to appear; choose another NODE_VERSION"
fi
