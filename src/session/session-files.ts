// Small helpers for the files of one session directory: stat without throwing, telling whether a file is
// still the one written, comparing histories the cheap way, and clearing temp files a killed process left.
import { readdirSync, type Stats, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../contract/history.ts";

export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The identity of a file as written: any rename over it or write into it changes one of these. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

export function sameFile(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Index of the first message where `next` differs from `prev` (messages are compared by value). */
export function firstDifference(prev: readonly Message[], next: readonly Message[]): number {
  const n = Math.min(prev.length, next.length);
  for (let i = 0; i < n; i++) {
    const a = prev[i];
    const b = next[i];
    // Messages are treated as immutable, so the same object means the same message; only copies cost.
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return i;
  }
  return n;
}

/** Temp files (`.NAME.PID.N.tmp`) a killed process left behind; those of a live process are its own. */
export function removeStaleTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\..+\.(\d+)\.\d+\.tmp$/.exec(name)?.[1];
    if (!pid || processAlive(Number(pid))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {}
  }
}

/** Whether process `pid` exists (EPERM: it does, but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
