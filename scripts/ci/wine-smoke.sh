#!/usr/bin/env bash
# The windows-x64 executable, run under Wine from a fresh prefix: --version, --help, init, doctor --online
# against the mock model, a -p run whose bash tool call is served by a bash.exe test double found on
# PATH through PATHEXT, sessions, and start.cmd through its full path. Any failed step fails the script
# (exit 1) with one line naming the step. Installs Debian's wine64 and mingw-w64 when missing; the two
# helper binaries (a bcryptprimitives.dll forwarder, which Wine 8.0 lacks, and the bash.exe double) are
# compiled here from scripts/ci/wine/. Usage: bash scripts/ci/wine-smoke.sh
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$ROOT/scripts/ci/wine
BUN=$ROOT/node_modules/.bin/bun
started=$(date +%s)

fail() {
  echo "wine-smoke: $*" >&2
  exit 1
}
say() { echo "wine-smoke: $* ($(($(date +%s) - started)) s)"; }

install() {
  # A lock held by another apt run is waited for, not treated as a failure.
  apt-get -o DPkg::Lock::Timeout=600 install -y "$@" >/dev/null ||
    { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y "$@" >/dev/null; }
}
command -v wine >/dev/null 2>&1 && dpkg -s wine64 >/dev/null 2>&1 || install wine64 wine || fail "cannot install wine64"
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || install gcc-mingw-w64-x86-64 || fail "cannot install mingw-w64"
say "wine $(wine --version 2>/dev/null), $(x86_64-w64-mingw32-gcc -dumpversion) mingw-w64"

work=$(mktemp -d)
mock_pid=""
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
cleanup() {
  [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
  [ -d "$WINEPREFIX" ] && wineserver -k 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Z: is Wine's view of the Unix root.
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }

"$BUN" "$ROOT/scripts/build.ts" --target windows-x64 --out "$work/dist" >"$work/build.log" 2>&1 ||
  fail "bun scripts/build.ts --target windows-x64 failed: $(tail -3 "$work/build.log")"
dist=$work/dist/i-windows-x64
exe=$dist/i.exe
[ -f "$exe" ] || fail "the build made no $exe"
say "built windows-x64"

mkdir -p "$work/bin"
x86_64-w64-mingw32-gcc -shared -nostdlib -o "$work/bcryptprimitives.dll" "$SRC/bcryptprimitives.def" "$SRC/dll-entry.c" ||
  fail "cannot build the bcryptprimitives.dll forwarder"
x86_64-w64-mingw32-gcc -O2 -o "$work/bin/bash.exe" "$SRC/bash-double.c" || fail "cannot build the bash.exe test double"

wineboot -i >/dev/null 2>&1 || fail "wineboot could not create a fresh prefix in $WINEPREFIX"
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/" || fail "cannot install the forwarder"
say "fresh prefix"

"$BUN" "$ROOT/test/fixtures/mock-server/cli.ts" --script "$SRC/script.json" >"$work/mock.url" 2>"$work/mock.err" &
mock_pid=$!
for _ in $(seq 100); do [ -s "$work/mock.url" ] && break; sleep 0.1; done
url=$(head -1 "$work/mock.url")
[ -n "$url" ] || fail "the mock model server did not start: $(cat "$work/mock.err")"

mkdir -p "$work/ws"
cd "$work/ws" || fail "no workspace"
export OPENAI_API_KEY=sk-wine-smoke-not-a-real-key
target=(--base-url "$url" -m mock-model --provider openai)

# run NAME WANT ARGS…: i.exe ARGS must exit 0 and print WANT (a fixed string).
run() {
  local name=$1 want=$2
  shift 2
  local out
  out=$(timeout 120 wine "$@" 2>&1)
  local code=$?
  [ "$code" -eq 0 ] || fail "$name: exit code $code: $(printf '%s' "$out" | tail -3)"
  printf '%s' "$out" | grep -qF -- "$want" || fail "$name: the output lacks \"$want\": $(printf '%s' "$out" | tail -3)"
  say "$name ok"
}

version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$ROOT/package.json")
run "--version" "i $version" "$exe" --version
run "--help" "USAGE" "$exe" --help
run "init" "config.json" "$exe" init
config=$(find "$WINEPREFIX/drive_c/users" -path '*/.i/config/config.json' | head -1)
[ -n "$config" ] || fail "init: no config.json in the prefix"
"$BUN" -e '
  const f = process.argv[1]; const fs = require("node:fs");
  const c = JSON.parse(fs.readFileSync(f, "utf8"));
  c.models = { "mock-model": { context_window: 100000, max_output_tokens: 4096 } };
  fs.writeFileSync(f, JSON.stringify(c));' "$config" || fail "cannot add the mock model to $config"
run "doctor --online" "all checks ok" "$exe" doctor --online "${target[@]}"
WINEPATH=$(winpath "$work/bin") run "-p with a bash tool call (bash.exe via PATHEXT)" \
  'bash.exe test double ran: echo hello from the tool' "$exe" -p "run it" --approve all --json "${target[@]}"
run "sessions" "run it" "$exe" sessions
run "start.cmd --version (full path)" "i $version" cmd /c "$(winpath "$dist/start.cmd")" --version
run "start.cmd sessions (full path)" "run it" cmd /c "$(winpath "$dist/start.cmd")" sessions
say "all steps passed"
