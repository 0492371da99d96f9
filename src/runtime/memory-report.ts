// A diagnostic for the memory benchmark: with I_DEBUG_MEMORY set to a directory, a process writes what its
// memory is made of when it exits, one JSON file per process (`<role>-<pid>.json`): its resident set, the
// JS heap as the engine sees it (size, capacity, the memory its strings and buffers own outside it, the
// commonest object types), the same after a full collection (what is live, against what was garbage),
// and its CPU time. The built-in worker process gets the variable too (src/worker/env.ts), so one run
// shows both sides of the tree. Outside Bun only the process figures are written.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const MEMORY_REPORT_VAR = "I_DEBUG_MEMORY";

interface HeapStats {
  heapSize: number;
  heapCapacity: number;
  extraMemorySize: number;
  objectCount: number;
  objectTypeCounts: Record<string, number>;
}

interface Jsc {
  heapStats(): HeapStats;
  gcAndSweep(): number;
}

export interface MemoryReport {
  role: string;
  pid: number;
  memoryUsage: NodeJS.MemoryUsage;
  cpu: NodeJS.CpuUsage;
  heap?: { size: number; capacity: number; extra: number; objects: number; topTypes: Record<string, number> };
  /** after a synchronous full collection and sweep: the live heap and the resident set then */
  live?: { size: number; objects: number; rss: number };
}

function heapOf(s: HeapStats): NonNullable<MemoryReport["heap"]> {
  const top = Object.entries(s.objectTypeCounts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12);
  return {
    size: s.heapSize,
    capacity: s.heapCapacity,
    extra: s.extraMemorySize,
    objects: s.objectCount,
    topTypes: Object.fromEntries(top),
  };
}

/** The report of this process now; `collect` runs a full GC first for the `live` part (at exit only). */
export function memoryReport(role: string, jsc: Jsc | undefined, collect: boolean): MemoryReport {
  const report: MemoryReport = {
    role,
    pid: process.pid,
    memoryUsage: process.memoryUsage(),
    cpu: process.cpuUsage(),
  };
  if (!jsc) return report;
  report.heap = heapOf(jsc.heapStats());
  if (collect) {
    jsc.gcAndSweep();
    const after = jsc.heapStats();
    report.live = { size: after.heapSize, objects: after.objectCount, rss: process.memoryUsage().rss };
  }
  return report;
}

/** Arms the exit report when the variable names a directory; a no-op otherwise. */
export async function armMemoryReport(role: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dir = env[MEMORY_REPORT_VAR];
  if (!dir) return;
  let jsc: Jsc | undefined;
  try {
    jsc = (await import("bun:jsc")) as Jsc;
  } catch {}
  process.on("exit", () => {
    try {
      const report = memoryReport(role, jsc, true);
      writeFileSync(join(dir, `${role}-${process.pid}.json`), `${JSON.stringify(report, null, 1)}\n`);
    } catch {}
  });
}
