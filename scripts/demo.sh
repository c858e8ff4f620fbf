#!/usr/bin/env bash
# `npm run demo`: see scripts/demo.ts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec node -r ts-node/register/transpile-only scripts/demo.ts
