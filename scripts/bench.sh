#!/usr/bin/env bash
# Benchmarks: print figures (no assertions). Loopback only, bounded counts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node -r ts-node/register/transpile-only bench/stubSize.ts
node -r ts-node/register/transpile-only bench/clientLatency.ts
