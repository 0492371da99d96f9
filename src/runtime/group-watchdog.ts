// Nothing `i` starts may outlive it, kill -9 included. A SIGKILLed process runs no exit handler, and the
// kernel's parent-death signal (prctl PR_SET_PDEATHSIG) would reach only the direct child, not what a
// command started in its process group. So one watchdog per `i` process, a tiny POSIX shell started with
// the first child group: `i` writes "add PGID" / "del PGID" lines to its stdin as groups start and end; when
// that pipe closes — `i` exited, however it died — the watchdog SIGKILLs every group still listed, then
// exits. It runs in a session of its own and ignores the terminal's signals, so a Ctrl-C or a hang-up
// that ends `i` cannot end it first. Plain node:child_process, so it works the same under Deno.
//
// Each line wakes the shell, which reads it a byte at a time: two per tool command showed up in the
// per-turn cost. A group that is already gone when it is forgotten (a command that left nothing behind,
// the usual case) is told with the next "add", or at the latest DEL_DELAY_MS later: listing a dead group
// a moment longer kills nothing, since its id cannot be reused that fast (a pid wraps around only after
// tens of thousands of processes). A group that still has members is forgotten at once: those were left
// in the background on purpose and may outlive `i`.
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

/** How long a "del" of a group that is gone may wait for the next "add" to go with. */
const DEL_DELAY_MS = 250;
/** "del" lines not written yet (groups with no member left), in order */
let deferred = "";
let deferTimer: ReturnType<typeof setTimeout> | undefined;

function tell(line: string): void {
  const text = `${deferred}${line}\n`;
  deferred = "";
  if (deferTimer !== undefined) clearTimeout(deferTimer);
  deferTimer = undefined;
  start()?.stdin?.write(text);
}

function flushDeferred(): void {
  deferTimer = undefined;
  if (deferred === "" || !dog) return;
  const text = deferred;
  deferred = "";
  dog.stdin?.write(text);
}

/** From now on, `pgid`'s whole group is killed when this process dies (POSIX; Windows has no groups). */
export function watchGroup(pgid: number | undefined): void {
  if (pgid === undefined || process.platform === "win32") return;
  tell(`add ${pgid}`);
}

/** Whether process group `pgid` still has a member. */
function groupHasMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM: a member exists (it changed its user); only ESRCH says the group is empty.
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** The group ended (or may outlive us on purpose): the watchdog forgets it. */
export function unwatchGroup(pgid: number | undefined): void {
  if (pgid === undefined || !dog) return;
  if (groupHasMembers(pgid)) {
    tell(`del ${pgid}`);
    return;
  }
  deferred += `del ${pgid}\n`;
  if (deferTimer === undefined) {
    deferTimer = setTimeout(flushDeferred, DEL_DELAY_MS);
    deferTimer.unref?.();
  }
}

/** The watchdog's pid, when one runs (tests check that it goes with `i`). */
export function watchdogPid(): number | undefined {
  return dog?.pid;
}
