#!/usr/bin/env bash
# Makes Node >= 22 available as .tools/bin/node. @pulumi/pulumi needs Node 22; when the machine's
# node is older, install the official binary that the npm registry ships in its per-platform
# `node-<os>-<arch>` package (the `node` meta-package only fetches that package in a postinstall
# script, which npm may refuse to run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/.tools/bin"
want_major=22
log() { printf '[setup-node] %s\n' "$*"; }

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

mkdir -p "$bin"
if [ -x "$bin/node" ] && [ "$(major_of "$bin/node")" -ge "$want_major" ]; then
  log "using $("$bin/node" --version) from .tools/bin"
  exit 0
fi
if command -v node >/dev/null 2>&1 && [ "$(major_of node)" -ge "$want_major" ]; then
  log "using the machine's node $(node --version) ($(command -v node))"
  exit 0
fi

os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "[setup-node] unsupported CPU $(uname -m): install Node >= $want_major yourself" >&2; exit 1 ;;
esac
pkg="node-$os-$arch@${NODE_VERSION:-$want_major}"
log "machine node is $(node --version 2>/dev/null || echo 'missing'); installing $pkg from the npm registry into .tools/node"
rm -rf "$root/.tools/node"
npm install --no-save --no-package-lock --ignore-scripts --prefix "$root/.tools/node" "$pkg" >/dev/null
node_bin="$(ls -d "$root/.tools/node/node_modules/node-$os-$arch/bin/node")"
ln -sfn "$node_bin" "$bin/node"
log "installed $("$bin/node" --version) as .tools/bin/node"
