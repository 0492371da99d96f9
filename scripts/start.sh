#!/bin/sh
# Launcher: generates a fresh temporary manifest from the current bindings on every run, then starts `i`
# with it, so a changed bindings.json takes effect without regenerating anything by hand. Works both
# packaged (next to the `i` binary) and from a source checkout (scripts/start.sh, run with Bun).
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
if [ -x "$here/i" ]; then
  run_i() { "$here/i" "$@"; }
else
  root=$(dirname -- "$here")
  bun="$root/node_modules/.bin/bun"
  [ -x "$bun" ] || bun=bun
  run_i() { "$bun" "$root/src/cli/main.ts" "$@"; }
fi
# Commands that do not run the agent take no manifest: pass them straight through.
case "${1-}" in
  init | doctor | sessions | worker | start | --runtime | --version | -V | --help | -h | help) run_i "$@"; exit $? ;;
esac
# The manifest is generated for the profile the arguments ask for (--profile NAME), else the default one.
profile=""
prev=""
for a in "$@"; do
  [ "$prev" = "--profile" ] && profile=$a
  case "$a" in --profile=*) profile=${a#--profile=} ;; esac
  prev=$a
done
manifest=$(mktemp "${TMPDIR:-/tmp}/i-manifest.XXXXXX")
trap 'rm -f "$manifest"' EXIT INT TERM
run_i --runtime manifest ${profile:+"$profile"} >"$manifest"
status=0
# --manifest goes last so it reaches subcommands too (start.sh compact -r ID, start.sh -p PROMPT, …).
run_i "$@" --manifest "$manifest" || status=$?
exit "$status"
