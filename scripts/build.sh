#!/usr/bin/env bash
# Builds the packages: pulumi-codesec (api, client, provider -> dist/), then the emulator package, which
# compiles against pulumi-codesec's built API definitions (emulator/dist/), and the policy pack, which
# compiles against pulumi-codesec/review (policy/dist/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# From scratch: a file left in dist/ by an older layout (dist/emulator, say) would otherwise be packed.
rm -rf dist emulator/dist policy/dist
tsc -p tsconfig.build.json
tsc -p emulator/tsconfig.json
tsc -p policy/tsconfig.build.json
