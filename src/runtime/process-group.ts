// Child process groups: a child spawned `detached` leads its own session and process group, so one
// signal to the negative pid reaches everything it started (helpers it forked, a shell wrapper's
// program), and a Ctrl-C at the terminal reaches only `i`, which decides what to stop. Groups still
// registered when this process exits are SIGKILLed, so nothing outlives `i` by accident.
import type { ChildProcess } from "node:child_process";

export function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the whole process group (POSIX); Windows has no groups, kill the child.
    if (process.platform === "win32") child.kill(sig);
    else process.kill(-child.pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}

const live = new Set<ChildProcess>();

function killLiveGroups(): void {
  for (const child of live) killGroup(child, "SIGKILL");
}

/** Kill `child`'s group when this process exits, until untrackGroup. */
export function trackGroup(child: ChildProcess): void {
  if (live.size === 0) process.on("exit", killLiveGroups);
  live.add(child);
}

export function untrackGroup(child: ChildProcess): void {
  if (live.delete(child) && live.size === 0) process.off("exit", killLiveGroups);
}
