#!/usr/bin/env bash
# Chromium, for the test that photographs the rendered PR comment (tests/unit/docs.reviewScreenshot.test.ts)
# and for `npm run docs`, which makes that screenshot (scripts/reviewScreenshot.ts). Lint does not need it
# (it compares a digest). Installed from the system's packages (Debian: chromium), which needs root or
# passwordless sudo; otherwise the set-up fails, saying so, since the test suite would fail without it.
# CODESEC_SKIP_CHROMIUM=1 skips it on a machine that will not run that test (the test then fails, saying
# how to install it). The set-up runs it last, so a failure here leaves the rest installed.
# Idempotent.
set -euo pipefail
log() { printf '[install-chromium] %s\n' "$*"; }
for name in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$name" >/dev/null 2>&1; then
    log "ready: $(command -v "$name")"
    exit 0
  fi
done
if [ "${CODESEC_SKIP_CHROMIUM:-}" = "1" ]; then
  log "CODESEC_SKIP_CHROMIUM=1: not installed; the screenshot test fails, and npm run docs does when the comment renders differently, until it is"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[install-chromium] no apt-get: install Chromium yourself (the screenshot test needs it), or set CODESEC_SKIP_CHROMIUM=1" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "[install-chromium] installing Chromium needs root: run \`sudo apt-get install -y chromium\`, or set CODESEC_SKIP_CHROMIUM=1" >&2
    exit 1
  fi
fi
log "apt-get install chromium"
# Ubuntu's chromium-browser is a snap stub: chromium is Debian's package name (and the runner images').
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null 2>&1 || {
  echo "[install-chromium] apt-get installed no chromium command" >&2
  exit 1
}
log "ready: $(command -v chromium)"
