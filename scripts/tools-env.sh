# shellcheck shell=bash
# The environment the project's scripts run in, for a clone at $root: with-tools.sh runs a command in it
# (every npm script goes through with-tools.sh), setup.sh sets itself up in it.
#  - PATH: .tools/bin first (Node when the machine's is unsuitable, see setup-node.sh; the Pulumi CLI and
#    its language hosts), then node_modules/.bin, so every child process sees the same Node and Pulumi.
#  - PULUMI_CODESEC_NODE: the set-up's Node, when there is one. The installed plugin's launcher runs the
#    `node` on PATH unless this names one, so a stack run from here never falls back to an older machine
#    Node (the launcher says which node it found).
#  - PULUMI_HOME: the clone's own Pulumi home, .tools/pulumi-home, whatever the shell's is. The CLI keeps
#    one plugin per version in its home, so a home shared by clones would run whichever clone installed
#    resource-codesec-v<version> there, or a release; with its own, each clone's set-up installs its build
#    there (install-plugin.sh) and its programs run that build. The user's own home (~/.pulumi, or the
#    shell's PULUMI_HOME) is never written. The stacks the scripts make (the demo, the tests, the bench)
#    name a home of their own in any case.
export PATH="$root/.tools/bin:$root/node_modules/.bin:$PATH"
if [ -x "$root/.tools/bin/node" ]; then export PULUMI_CODESEC_NODE="$root/.tools/bin/node"; fi
export PULUMI_HOME="$root/.tools/pulumi-home"
