#!/bin/sh
# Launcher: generates a fresh temporary manifest from the current bindings on every run, then starts `i`
# with it, so a changed bindings.json takes effect without regenerating anything by hand.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
bin="$here/i"
manifest=$(mktemp "${TMPDIR:-/tmp}/i-manifest.XXXXXX")
trap 'rm -f "$manifest"' EXIT INT TERM
"$bin" --runtime manifest >"$manifest"
status=0
# --manifest goes last so it reaches subcommands too (start.sh compact -r ID, start.sh -p PROMPT, …).
"$bin" "$@" --manifest "$manifest" || status=$?
exit "$status"
