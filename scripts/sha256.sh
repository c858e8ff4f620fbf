# shellcheck shell=bash
# The one sha256 of the set-up's scripts (setup-node.sh, install-actionlint.sh, build-generator.sh): the
# hex digest of a file or of stdin, with sha256sum (GNU) or shasum (macOS, BSD). A script calls
# require_sha256 before it relies on a digest, so that a missing tool stops it before it changes anything.

# Fails, naming what to install, when neither tool is on PATH.
require_sha256() { # $1 = the calling script's log prefix, e.g. [setup-node]
  command -v sha256sum >/dev/null 2>&1 || command -v shasum >/dev/null 2>&1 || {
    echo "$1 needs sha256sum (GNU coreutils) or shasum (Perl) on PATH to check digests; nothing changed" >&2
    return 1
  }
}

# The hex sha256 of stdin.
sha256_stdin() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi | cut -d' ' -f1
}

# The hex sha256 of the file $1.
sha256_file() { sha256_stdin <"$1"; }

# Whether the file $1 has the digest recorded in the file $2; says why not on stdout ("no record" or
# "changed"), for the caller's message.
recorded_digest_differs() { # $1 = file, $2 = record
  if [ ! -f "$2" ]; then
    echo "no record"
  elif [ "$(sha256_file "$1")" != "$(cat "$2")" ]; then
    echo "changed"
  else
    return 1
  fi
}
