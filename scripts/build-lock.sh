# shellcheck shell=bash
# The set-up's build lock, shared by the scripts that build into the cache (install-pulumi.sh,
# build-generator.sh, setup-languages.sh). Sourcing it needs nothing set; its functions read `cache_root`,
# `lock` and `progress_every` and call `log`.
#
# One build at a time per cache: clones set up at once on one machine share it, and the second waits for
# the first, then finds the build done. The lock is a symbolic link whose target is the owner's pid:
# `ln -s` makes it, owner included, in one atomic step (everywhere; flock is not on macOS), so it never
# exists without its owner. A lock whose owner is gone (a killed set-up) is taken over.
lock_owner_running() { # $1 = pid
  local command
  kill -0 "$1" 2>/dev/null || return 1
  # The system may have given that pid to another program since: then it is not a set-up.
  if command="$(ps -p "$1" -o command= 2>/dev/null)"; then
    case "$command" in *install-pulumi* | *build-generator* | *setup-languages*) return 0 ;; *) return 1 ;; esac
  fi
  return 0 # no usable ps: the pid is all we know
}
acquire_build_lock() {
  local waited=0 owner
  mkdir -p "$cache_root"
  until ln -s "$$" "$lock" 2>/dev/null; do
    owner="$(readlink "$lock" 2>/dev/null || true)"
    if [ -n "$owner" ] && ! lock_owner_running "$owner"; then
      # Only if it still names that owner: another waiter may have taken it over meanwhile.
      if [ "$(readlink "$lock" 2>/dev/null || true)" = "$owner" ]; then
        log "taking over the build lock of set-up $owner, which is no longer running"
        rm -f "$lock"
      fi
      continue
    fi
    if [ $((waited % progress_every)) -eq 0 ]; then
      log "another set-up (pid ${owner:-unknown}) is building in $cache_root: waiting for it (${waited} s so far)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
}
release_build_lock() {
  if [ "$(readlink "$lock" 2>/dev/null || true)" = "$$" ]; then rm -f "$lock"; fi
}
