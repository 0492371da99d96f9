#!/bin/sh
# Launcher: runs `i start ARGS`, which generates a fresh temporary manifest from the current profile and
# bindings, runs with it, and removes it on every exit path (INT, TERM, HUP included). This script `exec`s,
# so it *is* that process: a signal sent to it reaches `i` directly and nothing is left behind to clean up.
# Works packaged (next to the `i` binary) and from a source checkout (scripts/start.sh, run with Bun),
# called through symlinks and from any directory.
set -eu
# Our real location, one symlink hop at a time: `readlink -f` is missing on older macOS.
self=$0
while [ -L "$self" ]; do
  link=$(readlink -- "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname -- "$self")/$link ;;
  esac
done
here=$(CDPATH='' cd -P -- "$(dirname -- "$self")" && pwd)
if [ -x "$here/i" ]; then
  exec "$here/i" start "$@"
fi
root=$(dirname -- "$here")
bun="$root/node_modules/.bin/bun"
if [ ! -x "$bun" ]; then
  command -v bun >/dev/null 2>&1 || { echo "start.sh: bun not found in $root/node_modules/.bin or on PATH; run npm ci in $root, or use the packaged i" >&2; exit 127; }
  bun=bun
fi
exec "$bun" "$root/src/cli/main.ts" start "$@"
