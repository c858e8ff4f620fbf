#!/usr/bin/env bash
# Makes the policy pack in policy/ runnable by the Pulumi CLI that setup.sh links into .tools/bin.
#
# That CLI's Node.js language host is an older one (see build_language_host in install-pulumi.sh) that
# cannot run policy packs: a pack with `runtime: nodejs` fails with "could not read plugin ... not
# supported". For a runtime that has no language host, the CLI instead runs the executable
# `pulumi-analyzer-policy-<runtime>` from PATH, in the pack's folder, with the engine's address and the
# pack's folder as arguments. So this writes:
#   <tools>/bin/pulumi-analyzer-policy-codesec-nodejs   runs @pulumi/pulumi's run-policy-pack with Node
#   <tools>/policy-pack/PulumiPolicy.yaml               policy/PulumiPolicy.yaml with `runtime: codesec-nodejs`
#   <tools>/policy-pack/package.json                    policy/'s version; `main`: the built pack, policy/dist/index.js
# and `pulumi preview --policy-pack .tools/policy-pack` runs the pack. An official CLI runs policy/ itself
# (`runtime: nodejs`) and needs none of this. Idempotent.
#
# Environment: CODESEC_TOOLS_DIR, the folder to write into (default .tools in the clone).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CODESEC_TOOLS_DIR:-$root/.tools}"
runtime=codesec-nodejs
launcher="$tools/bin/pulumi-analyzer-policy-$runtime"
pack="$tools/policy-pack"
source_yaml="$root/policy/PulumiPolicy.yaml"

node_path="$(command -v node)"
# @pulumi/pulumi's policy-pack runner as policy/ resolves it: the one the pack's @pulumi/policy loads.
runner="$(cd "$root/policy" && node -p 'require.resolve("@pulumi/pulumi/cmd/run-policy-pack")')"
# Where the runner sits in a package folder, as the launcher looks for a pack's own.
runner_path=@pulumi/pulumi/cmd/run-policy-pack/index.js
compile_cache="$tools/node-compile-cache"
mkdir -p "$tools/bin" "$pack"

cat >"$launcher.tmp" <<LAUNCHER
#!/bin/sh
# Written by scripts/setup-policy.sh: the Pulumi CLI runs this for a policy pack with
# \`runtime: $runtime\`, in the pack's folder, with the engine's address and the pack's folder.
# The runner of the pack's own node_modules when it has one (looked for as Node looks for a package: in
# node_modules of the folder and of each parent), else policy/'s; looked for by the shell, so that a start
# costs one Node.js process.
runner="$runner"
dir="\$PWD"
while :; do
  if [ -f "\$dir/node_modules/$runner_path" ]; then
    runner="\$dir/node_modules/$runner_path"
    break
  fi
  [ -n "\$dir" ] && [ "\$dir" != / ] || break
  dir="\${dir%/*}"
done
# Node's compile cache: every start after the first reads the compiled code of the modules it loads (the
# runner loads TypeScript whatever the pack is written in, then @pulumi/pulumi and the pack) instead of
# compiling them again. A cache folder or NODE_DISABLE_COMPILE_CACHE of the caller's is kept.
if [ -z "\${NODE_DISABLE_COMPILE_CACHE:-}" ]; then
  NODE_COMPILE_CACHE="\${NODE_COMPILE_CACHE:-$compile_cache}"
  export NODE_COMPILE_CACHE
fi
exec "$node_path" "\$runner" "\$@"
LAUNCHER
chmod 0755 "$launcher.tmp"
mv -f "$launcher.tmp" "$launcher"

{
  printf '# Written by scripts/setup-policy.sh from policy/PulumiPolicy.yaml; only the runtime differs.\n'
  sed "s/^runtime:.*/runtime: $runtime/" "$source_yaml"
} >"$pack/PulumiPolicy.yaml"
# `main` relative to this folder, so the pack's own modules resolve from policy/ (the workspace's node_modules).
main="$(node -p 'require("path").relative(process.argv[1], process.argv[2])' "$pack" "$root/policy/dist/index.js")"
# @pulumi/policy reads the pack's version from the package.json of the folder it runs in.
version="$(node -p 'require(process.argv[1]).version' "$root/policy/package.json")"
printf '{ "name": "codesec-policy-local", "version": "%s", "private": true, "main": "%s" }\n' "$version" "$main" \
  >"$pack/package.json"
echo "[setup-policy] $launcher and $pack (runtime $runtime)"
