#!/usr/bin/env bash
# Publishes the release's npm tarballs (release/v<version>/*.tgz) to the registry npm is configured with
# (NPM_CONFIG_REGISTRY, .npmrc): pulumi-codesec first, which the emulator and the policy pack depend on.
# On CI, CODESEC_NPM_PROVENANCE=true adds `--provenance` (npm signs it with the workflow's OIDC token).
# A registry that refuses a tarball fails this script with the registry's message; a release whose
# provenance says it is not publishable is refused first (check-publishable.sh).
#
#   scripts/release/publish-npm.sh release/v<version>
set -euo pipefail
dir="${1:?usage: publish-npm.sh release/v<version>}"
version="${dir##*/v}"
bash "$(dirname "$0")/check-publishable.sh" "$dir"
flags=(--access public)
if [ "${CODESEC_NPM_PROVENANCE:-}" = "true" ]; then flags+=(--provenance); fi
for tarball in "pulumi-codesec-$version.tgz" "pulumi-codesec-codesec-$version.tgz" \
  "codesec-emulator-$version.tgz" "codesec-policy-$version.tgz"; do
  echo "[publish-npm] $tarball"
  npm publish "${flags[@]}" "$dir/$tarball"
done
