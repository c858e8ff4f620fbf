# shellcheck shell=bash
# The set-up's build lock, shared by the scripts that build into the cache (install-pulumi.sh,
# build-generator.sh). Source it after setting `cache_root` and `lock_dir` and defining `log`.
#
# One build at a time per cache: clones set up at once on one machine share it, and the second waits for
# the first, then finds the build done. A lock directory (mkdir is atomic everywhere, flock is not on
# macOS) holding the owner's pid; a lock whose owner is gone (a killed set-up) is taken over.
acquire_build_lock() {
  local waited=0 owner
  mkdir -p "$cache_root"
  until mkdir "$lock_dir" 2>/dev/null; do
    owner="$(cat "$lock_dir/pid" 2>/dev/null || true)"
    if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
      log "taking over the build lock of set-up $owner, which is no longer running"
      rm -rf "$lock_dir"
      continue
    fi
    if [ $((waited % 30)) -eq 0 ]; then
      log "another set-up (pid ${owner:-unknown}) is building in $cache_root: waiting for it (${waited}s so far)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo $$ >"$lock_dir/pid"
}
release_build_lock() {
  if [ "$(cat "$lock_dir/pid" 2>/dev/null || true)" = "$$" ]; then rm -rf "$lock_dir"; fi
}
