// What a test looks for in /proc (Linux): the processes a console or a command started, and whether one
// still runs.
import { type ChildProcess, spawn } from "node:child_process";
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

/** Poll `cond` every 50 ms: true once it holds, false if it still does not after `ms`. */
export async function pollUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** A shell leading its own process group, with a `sleep 30` it started in the background (its pid). */
export async function shellWithBackgroundChild(): Promise<{ sh: ChildProcess; grandchild: number }> {
  const sh = spawn("/bin/sh", ["-c", "sleep 30 & echo $!; wait"], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const grandchild = await new Promise<number>((r) =>
    sh.stdout?.once("data", (c: Buffer) => r(Number(String(c).trim()))),
  );
  return { sh, grandchild };
}
