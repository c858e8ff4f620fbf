#!/usr/bin/env bash
# Builds the native provider's release archive from this tree (scripts/plugin-release.ts, into release/)
# and installs it into the Pulumi CLI the way a user installs a release:
#   pulumi plugin install resource codesec <version> -f <archive> --reinstall
# into the CLI's plugin cache, $PULUMI_HOME/plugins (~/.pulumi/plugins when PULUMI_HOME is unset, as for
# every pulumi command the set-up and the READMEs run). --reinstall: a second set-up replaces the earlier
# build of the same version. The end-to-end tests install their own copy into each stack's PULUMI_HOME.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version="$(node -p 'require("./package.json").version')"
tarball="$(node -r ts-node/register/transpile-only scripts/plugin-release.ts --out release)"
echo "[install-plugin] built $(basename "$tarball")"
pulumi plugin install resource codesec "$version" -f "$tarball" --reinstall
plugin_dir="${PULUMI_HOME:-$HOME/.pulumi}/plugins/resource-codesec-v$version"
echo "[install-plugin] installed into $plugin_dir: $("$plugin_dir/pulumi-resource-codesec" --build-info)"
