#!/usr/bin/env bash
# Refuses to publish a release whose provenance says it is not one to publish (`publishable: false`: built
# with --allow-stale-performance, its performance figures not measured on its sources). Every publishing
# step runs it first. CODESEC_PUBLISH_UNPUBLISHABLE=1 publishes anyway: for a rehearsal against local
# registries only; the release workflow never sets it (a test checks).
#
#   scripts/release/check-publishable.sh release/v<version>
set -euo pipefail
dir="${1:?usage: check-publishable.sh release/v<version>}"
statement="$dir/provenance.intoto.json"
if [ ! -f "$statement" ]; then
  echo "[publish] refused: $statement is missing; publish only what \`npm run release\` wrote" >&2
  exit 1
fi
publishable="$(node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  process.stdout.write(String(s.predicate.buildDefinition.externalParameters.publishable !== false));
' "$statement")"
if [ "$publishable" = "true" ]; then exit 0; fi
if [ "${CODESEC_PUBLISH_UNPUBLISHABLE:-}" = "1" ]; then
  echo "[publish] publishing a release marked not publishable ($statement), as CODESEC_PUBLISH_UNPUBLISHABLE=1 asks: a rehearsal only" >&2
  exit 0
fi
echo "[publish] refused: $statement says this release is not publishable (built with" \
  "--allow-stale-performance: docs/performance.md was not measured on its sources). Run the bench on" \
  "this commit, commit docs/performance.md, then run \`npm run release\` without the flag." >&2
exit 1
