#!/usr/bin/env bash
# Builds both packages: pulumi-codesec (api, sdk, provider -> dist/), then the emulator package, which
# compiles against pulumi-codesec's built API definitions (emulator/dist/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tsc -p tsconfig.build.json
tsc -p emulator/tsconfig.json
