# shellcheck shell=bash
# What the scripts that run Go share: ensure_go, the one look-up of Go (every such script), and for those
# that build Go programs into the set-up's cache (install-pulumi.sh, setup-languages.sh): progress lines
# during a long step, the traps that stop it, the Go environment (checksum database on, the toolchain a
# go.mod asks for), reading `go mod download -json` and go.mod files, and building a package as the tool
# of a wrapper module, under the build lock (build-lock.sh, sourced from beside this file).
#
# Sourcing it needs nothing set, nor does ensure_go. The other functions read, when called:
# `log` (a function), `progress_every` (with_progress, build_wrapped), `root` (wanted_version),
# and build-lock.sh's `cache_root` and `lock` (acquire_build_lock, release_build_lock).

# shellcheck source=build-lock.sh
source "$(dirname "${BASH_SOURCE[0]}")/build-lock.sh" # acquire_build_lock, release_build_lock

# ---- finding Go -----------------------------------------------------------------------------------

# The one place the scripts look for Go: the `go` on PATH, else that of Go's official tarball, which
# installs to /usr/local/go without touching PATH (then put first on PATH). Answers 1 when there is no
# Go: each script says what that means for it (a warning, a fallback, or a failure naming what needs Go).
ensure_go() {
  if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    export PATH="/usr/local/go/bin:$PATH"
  fi
  command -v go >/dev/null 2>&1
}

# ---- progress and the end of the script -----------------------------------------------------------

ticker_pid=""
work_pid=""

# Runs a command that can take minutes (a cold module download, the compile), printing a line every
# $progress_every seconds meanwhile, so that a quiet terminal or CI log does not look hung. The command
# runs in the background, waited for: a TERM or INT to the script interrupts the wait (a foreground
# command would hold the trap back until it ends), and the traps (go_build_traps) stop the command, its
# children (go's compilers) included, and the ticker.
with_progress() { # $1 = what is being done ("compiling ..."), then the command
  local what="$1" since=$SECONDS rc=0
  shift
  # The ticker's sleep holds none of our output: killing the ticker closes it at once.
  (while sleep "$progress_every" </dev/null >/dev/null 2>&1; do
    log "still $what ($((SECONDS - since)) s so far)"
  done) &
  ticker_pid=$!
  "$@" &
  work_pid=$!
  wait "$work_pid" || rc=$?
  work_pid=""
  stop_ticker
  return "$rc"
}
stop_ticker() {
  if [ -n "$ticker_pid" ]; then
    kill "$ticker_pid" 2>/dev/null || true
    wait "$ticker_pid" 2>/dev/null || true
    ticker_pid=""
  fi
}
stop_work() {
  if [ -n "$work_pid" ]; then
    stop_tree "$work_pid"
    wait "$work_pid" 2>/dev/null || true
    work_pid=""
  fi
}
# TERM to a process and its descendants, the children first (pgrep -P: Linux, macOS and the BSDs). Not its
# process group: that is the script's own, and whoever started the script may share it.
stop_tree() { # $1 = pid
  local child
  for child in $(pgrep -P "$1" 2>/dev/null || true); do stop_tree "$child"; done
  kill -TERM "$1" 2>/dev/null || true
}

# On every exit: the running command and the ticker stopped, the build lock released, then the script's
# own `after_build_exit <status>` if it defines one. INT and TERM end the script with 130 and 143 (the
# shell's 128 + signal), through the same EXIT trap.
go_build_on_exit() {
  local rc=$?
  stop_work
  stop_ticker
  release_build_lock
  if declare -F after_build_exit >/dev/null; then after_build_exit "$rc"; fi
}
go_build_traps() {
  trap go_build_on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

in_dir() { # $1 = directory, then the command
  (cd "$1" && shift && "$@")
}

# ---- paths ------------------------------------------------------------------------------------------

# Portable stand-ins for GNU `readlink -f` / `readlink -m` (macOS' readlink has neither before 12.3):
# plain `readlink` (one link) and `cd -P` (physical directory) are in every POSIX system.
# The path of $1 with every symbolic link resolved, the last component included.
real_path() {
  local target="$1" link hops=0
  while [ -L "$target" ] && [ "$hops" -lt 40 ]; do
    link="$(readlink "$target")"
    case "$link" in
      /*) target="$link" ;;
      *) target="$(dirname "$target")/$link" ;;
    esac
    hops=$((hops + 1))
  done
  printf '%s/%s\n' "$(physical_dir "$(dirname "$target")")" "$(basename "$target")"
}
# The directory $1 with symbolic links resolved; as given when it does not exist (nothing is under it).
physical_dir() { (cd -P "$1" 2>/dev/null && pwd) || printf '%s\n' "$1"; }

# ---- versions -----------------------------------------------------------------------------------------

# The CLI speaks to the @pulumi/pulumi package the project is locked to: PULUMI_VERSION, else that
# package's version in package-lock.json, else package.json's requirement. Exits when there is none.
wanted_version() {
  local v="${PULUMI_VERSION:-}"
  if [ -z "$v" ] && [ -f "$root/package-lock.json" ]; then
    v="$(node -p 'const p = require(process.argv[1]).packages || {};
      (p["node_modules/@pulumi/pulumi"] || {}).version || ""' "$root/package-lock.json" 2>/dev/null || true)"
  fi
  if [ -z "$v" ] && [ -f "$root/package.json" ]; then
    v="$(node -p 'const p = require(process.argv[1]);
      const d = { ...p.peerDependencies, ...p.dependencies, ...p.devDependencies };
      (d["@pulumi/pulumi"] || "").replace(/^[^0-9]*/, "")' "$root/package.json" 2>/dev/null || true)"
  fi
  [ -n "$v" ] || { log "cannot tell the @pulumi/pulumi version; set PULUMI_VERSION" >&2 && exit 1; }
  echo "${v#v}"
}

version_ge() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]; }

# ---- the Go environment -------------------------------------------------------------------------------

# Every module is checked against the Go checksum database, whatever the environment or `go env -w` says:
# GOSUMDB is set to the public database, the variables that exempt modules from it (or allow fetching
# them insecurely) are dropped, and a `go env -w` setting of those, which an unset variable does not
# override, is refused with the command that removes it.
require_checksum_db() {
  local name value
  export GOSUMDB=sum.golang.org
  unset GONOSUMDB GONOSUMCHECK GOPRIVATE GOINSECURE
  for name in GOSUMDB GONOSUMDB GOINSECURE; do
    value="$(go env "$name")" || return 1
    case "$name=$value" in
      GOSUMDB=sum.golang.org | GONOSUMDB= | GOINSECURE=) ;;
      *)
        log "refusing to build: Go's settings ($(go env GOENV)) have $name=$value, which exempts modules from the" \
          "checksum database; remove it (go env -u $name$([ "$name" = GONOSUMDB ] && echo ' GOPRIVATE'))" >&2
        return 1
        ;;
    esac
  done
}

# Stay on the local Go when it is new enough (no toolchain download); otherwise let Go fetch the
# toolchain the go.mod asks for from the module proxy (checked against the checksum database like any
# module), and say so.
use_go_for() { # $1 = go version a go.mod asks for
  local local_go
  # The local Go itself, not a toolchain an earlier step of the script chose through GOTOOLCHAIN.
  local_go="$(GOTOOLCHAIN=local go env GOVERSION)"
  local_go="${local_go#go}"
  if version_ge "$local_go" "$1"; then
    export GOTOOLCHAIN=local
  else
    log "go.mod asks for Go $1, the local Go is $local_go: letting Go download go$1 (GOTOOLCHAIN=go$1)" >&2
    export GOTOOLCHAIN="go$1"
  fi
}

# ---- modules ------------------------------------------------------------------------------------------

json_field() { # $1 = `go mod download -json` output, $2 = field name
  sed -n "s/^[[:space:]]*\"$2\": \"\(.*\)\",\{0,1\}$/\1/p" <<<"$1" | head -n1 | sed 's/\\n\\t*/ /g'
}

go_directive() { go mod edit -print "$1" | sed -n 's/^go \(.*\)$/\1/p'; }

# A go.mod's replace directives as `replace ...` lines, minus local paths (pkg's go.mod points
# sdk/v3 at ../sdk: the wrapper modules replace those with the released modules), minus comments and
# minus the modules matching $2 (a regexp of module paths), when given.
nonlocal_replaces() { # $1 = go.mod, $2 = regexp of module paths to leave out (optional)
  go mod edit -print "$1" | awk '
    /^replace \($/ { inblock = 1; next }
    inblock && /^\)/ { inblock = 0; next }
    /^replace / { sub(/^replace /, ""); print; next }
    inblock { sub(/^[[:space:]]+/, ""); print }' |
    sed 's:[[:space:]]*//.*$::' |
    awk -F' => ' -v skip="${2:+^($2)( |\$)}" '$2 !~ /^(\.\.?\/|\/)/ && (skip == "" || $1 !~ skip)' |
    sed 's/^/replace /'
}

# `go install pkg@version` refuses modules whose go.mod has replace directives, so each binary is
# built as the tool of a generated module (require/replace lines on stdin) in the cache.
build_wrapped() { # $1 = module dir, $2 = go version, $3 = package, $4 = output, $5 = -ldflags
  local dir="$1" gover="$2" pkg="$3" out="$4"
  version_ge "$gover" 1.24 || gover=1.24 # the `tool` directive
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  {
    printf 'module pulumi-codesec.local/%s\n\ngo %s\n\n' "$(basename "$dir")" "$gover"
    cat
    printf '\ntool %s\n' "$pkg"
  } >"$dir/go.mod"
  use_go_for "$gover"
  log "resolving modules for $pkg (in $dir)"
  with_progress "resolving modules for $pkg" in_dir "$dir" go mod tidy || return 1
  log "compiling $pkg (a few minutes cold; a line every ${progress_every} s meanwhile)"
  # A name of this process's own: a second set-up that got past the lock (another cache root on the
  # same bin folder, say) never renames our half-written file, nor we its.
  with_progress "compiling $pkg" in_dir "$dir" go build -o "$out.tmp.$$" -ldflags "$5" "$pkg" || return 1
  mv -f "$out.tmp.$$" "$out"
}
