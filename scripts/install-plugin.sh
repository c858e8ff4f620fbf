#!/usr/bin/env bash
# Builds the native provider's release archive from this tree (scripts/plugin-release.ts, into release/)
# and installs it into the Pulumi CLI the way a user installs a release:
#   pulumi plugin install resource codesec <version> -f <archive> --reinstall
# into the CLI's plugin cache, $PULUMI_HOME/plugins. The project's scripts (setup.sh, with-tools.sh) set
# PULUMI_HOME to the clone's own home, .tools/pulumi-home (tools-env.sh): there each clone has its own
# build, which its programs then run, and the user's ~/.pulumi is not written. The end-to-end tests
# install their own copy into each stack's PULUMI_HOME.
#
# Run with another PULUMI_HOME (one shared by clones and by a release the user installed), it keeps that
# cache's one plugin per version safe: an installed resource-codesec-v<version> is replaced only when it is
# this clone's own earlier build (the marker file this script writes beside it names this clone's
# directory), or when CODESEC_REPLACE_PLUGIN=1 asks for it. Any other (a genuine release, another clone's
# build, one with no --build-info) is kept, with a warning that says what is installed and how to replace
# it. One already of this tree's build is kept.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
MARKER=".installed-by-codesec-clone"
version="$(node -p 'require("./package.json").version')"
# Where the CLI puts it: $PULUMI_HOME, else .pulumi in the account's home directory as the system's user
# database gives it (the CLI asks for that, not for $HOME: they differ when HOME was changed).
plugin_dir="${PULUMI_HOME:-$(node -p 'require("node:os").userInfo().homedir')/.pulumi}/plugins/resource-codesec-v$version"
# One run, one bundle: it prints the archive's path and the build hash its bundle carries (tab-separated).
release="$(node -r ts-node/register/transpile-only scripts/plugin-release.ts --out release)"
tarball="${release%%$'\t'*}"
build="${release#*$'\t'}"
echo "[install-plugin] built $(basename "$tarball") ($build)"

if [ -d "$plugin_dir" ]; then
  # Bounded where `timeout` exists (not on a bare macOS): a plugin that does not know the flag would start
  # serving and wait for the engine.
  bounded=()
  if command -v timeout >/dev/null; then bounded=(timeout 10); fi
  installed_info="$(${bounded[@]+"${bounded[@]}"} "$plugin_dir/pulumi-resource-codesec" --build-info 2>/dev/null || true)"
  installed_build="$(printf '%s' "$installed_info" | node -e '
    let text = ""; process.stdin.on("data", (c) => (text += c)).on("end", () => {
      try { process.stdout.write(String(JSON.parse(text).build ?? "")); } catch { /* no build-info */ }
    });')"
  installed_by="$(cat "$plugin_dir/$MARKER" 2>/dev/null || true)"
  if [ "$installed_build" = "$build" ]; then
    echo "[install-plugin] $plugin_dir is already this tree's build ($build)"
    exit 0
  fi
  if [ "$installed_by" != "$root" ] && [ "${CODESEC_REPLACE_PLUGIN:-}" != "1" ]; then
    if [ -n "$installed_by" ]; then
      what="the build of another clone ($installed_by)"
    elif [ -n "$installed_build" ]; then
      what="a plugin not installed by a set-up (a release, say)"
    else
      what="a plugin that gives no --build-info"
    fi
    echo "[install-plugin] WARNING: $plugin_dir holds $what${installed_build:+, build $installed_build}," \
      "not this tree's build ($build); kept as it is. To replace it with this tree's build, run this" \
      "script again with CODESEC_REPLACE_PLUGIN=1 (and PULUMI_HOME=$(dirname "$(dirname "$plugin_dir")"))" >&2
    exit 0
  fi
fi

pulumi plugin install resource codesec "$version" -f "$tarball" --reinstall
printf '%s\n' "$root" >"$plugin_dir/$MARKER"
echo "[install-plugin] installed into $plugin_dir: $("$plugin_dir/pulumi-resource-codesec" --build-info)"
