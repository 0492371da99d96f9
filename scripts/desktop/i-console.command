#!/bin/sh
# Desktop launch on macOS (double-click in Finder opens it in Terminal): the console with
# config_dir/desktop.json when that file exists, else with a fresh manifest generated from the current
# bindings (`i start --desktop`). Packaged it sits next to `i`; in a source checkout it uses start.sh.
set -eu
self=$0
while [ -L "$self" ]; do
  link=$(readlink -- "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname -- "$self")/$link ;;
  esac
done
here=$(CDPATH='' cd -P -- "$(dirname -- "$self")" && pwd)
# Finder starts it in the home directory; a console there is the natural default workspace.
cd "$HOME"
if [ -x "$here/i" ]; then
  exec "$here/i" start --desktop "$@"
fi
exec sh "$here/../start.sh" --desktop "$@"
