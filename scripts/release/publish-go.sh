#!/usr/bin/env bash
# Publishes the Go SDK: tags the release's commit `sdk/go/v<version>` (Go finds a nested module's versions
# under its folder's prefix) and pushes the tag to REMOTE (default origin). Once pushed, the Go module proxy
# serves the same module zip as release/v<version>/go/ (both are made by Go's module tooling from the
# commit's files). A release whose provenance (release/v<version>/, or RELEASE_DIR) says it is not
# publishable is refused first (check-publishable.sh).
#
#   scripts/release/publish-go.sh <version>
set -euo pipefail
version="${1:?usage: publish-go.sh <version>}"
remote="${REMOTE:-origin}"
bash "$(dirname "$0")/check-publishable.sh" "${RELEASE_DIR:-release/v$version}"
tag="sdk/go/v$version"
git tag --force "$tag" HEAD
git push "$remote" "refs/tags/$tag"
echo "[publish-go] pushed $tag to $remote"
