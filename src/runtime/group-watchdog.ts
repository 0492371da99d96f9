// Nothing `i` starts may outlive it, kill -9 included. A SIGKILLed process runs no exit handler, and the
// kernel's parent-death signal (prctl PR_SET_PDEATHSIG) would reach only the direct child, not what a
// command started in its process group. So one watchdog per `i` process, a tiny POSIX shell started with
// the first child group: `i` writes "add PGID" / "del PGID" lines to its stdin as groups start and end; when
// that pipe closes — `i` exited, however it died — the watchdog SIGKILLs every group still listed, then
// exits. It runs in a session of its own and ignores the terminal's signals, so a Ctrl-C or a hang-up
// that ends `i` cannot end it first. Plain node:child_process, so it works the same under Deno.
import { type ChildProcess, spawn } from "node:child_process";

const SCRIPT = [
  "trap '' INT HUP TERM QUIT",
  'groups=" "',
  "while read -r op id; do",
  '  case "$op" in',
  '    add) groups="$groups$id " ;;',
  '    del) keep=" "; for g in $groups; do [ "$g" = "$id" ] || keep="$keep$g "; done; groups=$keep ;;',
  "  esac",
  "done",
  'for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done',
].join("\n");

let dog: ChildProcess | undefined;
let broken = false;

function start(): ChildProcess | undefined {
  if (dog || broken) return dog;
  try {
    dog = spawn("/bin/sh", ["-c", SCRIPT], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env: { PATH: "/usr/bin:/bin" },
    });
  } catch {
    broken = true;
    return undefined;
  }
  dog.on("error", () => {
    broken = true;
    dog = undefined;
  });
  dog.on("exit", () => {
    dog = undefined;
  });
  // Never what keeps `i` running: the pipe and the process are both let go of.
  dog.stdin?.on("error", () => {});
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return dog;
}

function tell(line: string): void {
  start()?.stdin?.write(`${line}\n`);
}

/** From now on, `pgid`'s whole group is killed when this process dies (POSIX; Windows has no groups). */
export function watchGroup(pgid: number | undefined): void {
  if (pgid === undefined || process.platform === "win32") return;
  tell(`add ${pgid}`);
}

/** The group ended (or may outlive us on purpose): the watchdog forgets it. */
export function unwatchGroup(pgid: number | undefined): void {
  if (pgid === undefined || !dog) return;
  tell(`del ${pgid}`);
}

/** The watchdog's pid, when one runs (tests check that it goes with `i`). */
export function watchdogPid(): number | undefined {
  return dog?.pid;
}
