// What a test looks for in /proc (Linux): the processes a console or a command started, and whether one
// still runs.
import { readdirSync } from "node:fs";
import { procStat } from "../../src/runtime/proc-stat.ts";

/** Every process whose ancestry leads to `root` (its descendants, at the time of the call). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = procStat(name)?.(4);
    if (ppid !== undefined) parent.set(Number(name), Number(ppid));
  }
  return [...parent.keys()].filter((pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  });
}

/** Whether `pid` runs: a zombie is dead (it waits only for its parent to reap it). */
export function alive(pid: number): boolean {
  const state = procStat(pid)?.(3);
  return state !== undefined && state !== "Z";
}

/** Whether `pid` can be signalled (any platform; a zombie still counts, unlike alive()). */
export function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Poll `cond` every 50 ms: true once it holds, false if it still does not after `ms`. */
export async function pollUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
