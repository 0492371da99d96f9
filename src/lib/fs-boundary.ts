// Crash testing of the files that matter. Every write, fsync, rename and link of a session passes through
// crashPoint() first; in normal runs it does nothing. Two environment variables let a test kill the
// process with SIGKILL exactly before the Nth such step (I_TEST_KILL_AT=N) and record every step
// (I_TEST_FS_BOUNDARIES=FILE, one "N kind path" line each), so a crash at every boundary can be
// replayed deterministically instead of hoping a random kill lands in the window that matters.
import { appendFileSync } from "node:fs";

export type BoundaryKind = "write" | "fsync" | "rename" | "link";

const killAt = Number(process.env.I_TEST_KILL_AT ?? "0");
const logFile = process.env.I_TEST_FS_BOUNDARIES;
const active = killAt > 0 || !!logFile;
let count = 0;

export function crashPoint(kind: BoundaryKind, path: string): void {
  if (!active) return;
  count++;
  if (logFile) appendFileSync(logFile, `${count} ${kind} ${path}\n`);
  if (count === killAt) process.kill(process.pid, "SIGKILL");
}
