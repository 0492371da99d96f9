// Child process groups: a child spawned `detached` leads its own session and process group, so one
// signal to the negative pid reaches everything it started (helpers it forked, a shell wrapper's
// program), and a Ctrl-C at the terminal reaches only `i`, which decides what to stop. Groups still
// registered when this process exits are SIGKILLed, so nothing outlives `i` by accident: on a normal exit,
// and on a SIGINT, SIGTERM or SIGHUP that would end it (one nobody else handles), after which the signal
// is raised again so `i` still dies of it. A kill -9 runs none of that: the watchdog (group-watchdog.ts)
// kills them then.
import { killTree } from "../lib/kill-tree.ts";
import { unwatchGroup, watchGroup } from "./group-watchdog.ts";

/** What these functions need of a child: node's ChildProcess, or Bun's own (group-leader.ts). */
export interface GroupChild {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): unknown;
}

/** Whether `child` has not been seen to exit yet. */
function running(child: GroupChild): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * End `child` and what it started: its process group (POSIX, a negative pid). Windows has no groups: the
 * child's tree is ended by its parent ids (taskkill /T /F), which can be walked only while the child
 * still runs (once it has exited, its pid may be another program's), then the child itself.
 */
export function killGroup(child: GroupChild, sig: NodeJS.Signals, platform = process.platform): void {
  if (child.pid === undefined) return;
  if (platform !== "win32") {
    killTree(child.pid, sig, platform);
    return;
  }
  if (running(child)) killTree(child.pid, sig, platform);
  try {
    child.kill(sig);
  } catch {
    // Already gone.
  }
}

/** Whether anything of `child`'s process group still runs (Windows has no groups: false). */
export function groupAlive(child: GroupChild): boolean {
  if (child.pid === undefined || process.platform === "win32") return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

const live = new Set<GroupChild>();

function killLiveGroups(): void {
  for (const child of live) killGroup(child, "SIGKILL");
}

const FATAL_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

function onFatalSignal(sig: NodeJS.Signals): void {
  // Another listener (print mode's or the console's Ctrl-C) means the signal is handled, not fatal.
  if (process.listenerCount(sig) > 1) return;
  killLiveGroups();
  for (const s of FATAL_SIGNALS) process.off(s, onFatalSignal);
  process.kill(process.pid, sig);
}

/** Kill `child`'s group when this process exits, until untrackGroup. */
export function trackGroup(child: GroupChild): void {
  if (process.platform === "win32") return;
  if (live.size === 0) {
    process.on("exit", killLiveGroups);
    for (const s of FATAL_SIGNALS) process.on(s, onFatalSignal);
  }
  live.add(child);
  watchGroup(child.pid);
}

export function untrackGroup(child: GroupChild): void {
  if (live.has(child)) unwatchGroup(child.pid);
  if (live.delete(child) && live.size === 0) {
    process.off("exit", killLiveGroups);
    for (const s of FATAL_SIGNALS) process.off(s, onFatalSignal);
  }
}
