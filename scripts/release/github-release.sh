#!/usr/bin/env bash
# Creates the GitHub release of tag v<version> holding what users download: the plugin archives (which
# the CLI fetches through the schema's pluginDownloadURL), SHA256SUMS, the SBOMs and the provenance
# statement. Its notes are the CHANGELOG's section of the version. A release whose provenance says it is
# not publishable is refused first (check-publishable.sh).
#
#   scripts/release/github-release.sh release/v<version>
set -euo pipefail
dir="${1:?usage: github-release.sh release/v<version>}"
version="${dir##*/v}"
bash "$(dirname "$0")/check-publishable.sh" "$dir"
notes="$(mktemp)"
trap 'rm -f "$notes"' EXIT
awk -v v="$version" '
  /^## / { if (found) exit; if (index($0, "[" v "]") || index($0, " " v)) { found = 1; next } }
  found { print }
' CHANGELOG.md >"$notes"
gh release create "v$version" --verify-tag --title "v$version" --notes-file "$notes" \
  "$dir"/pulumi-resource-codesec-v"$version"-*.tar.gz "$dir"/SHA256SUMS "$dir"/*.cdx.json "$dir"/provenance.intoto.json
