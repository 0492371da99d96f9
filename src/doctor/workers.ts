// `i doctor`, workers part: one row per module — started, handshake passed, one round trip timed — and
// below the table each failure's cause. Modules whose own config file is bad were not started; they get
// their own FAILED row so the built-ins sharing a process with them are still reported one by one.

import type { Manifest } from "../contract/manifest.ts";
import type { ModuleName } from "../contract/registry.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import { checkWorkers } from "../worker/doctor-check.ts";
import type { WorkerHost } from "../worker/host.ts";
import { count, type Line, shellWord, Table } from "./report.ts";

const ms = (v: number | undefined) =>
  v === undefined ? "-" : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`;

/** A module's command line: built-ins by the modules their process serves, bound ones by their argv. */
function execText(builtin: boolean, exec: readonly string[]): string {
  if (builtin) return `i worker ${exec[exec.indexOf("worker") + 1] ?? ""}`;
  return exec.map(shellWord).join(" ");
}

export async function workerRows(
  manifest: Manifest,
  checked: Manifest,
  host: WorkerHost,
  badConfig: ReadonlyMap<ModuleName, string>,
): Promise<{ lines: Line[]; failed: number }> {
  const checks = await checkWorkers(checked, host);
  const byName = new Map(checks.map((c) => [c.module, c]));
  const order = [...manifest.modules.map((m) => m.name), ...checked.modules.map((m) => m.name)];
  // EXEC last, so a long command line runs off the end of its own row instead of pushing every column
  // after it onto the next line; a process several built-ins share is written out once, under the table.
  const rows = [["MODULE", "KIND", "STATUS", "START", "ROUND TRIP", "EXEC"]];
  const causes: string[] = [];
  const entries = [...new Set(order)].map((name) => {
    const c = byName.get(name);
    const m = manifest.modules.find((x) => x.name === name);
    const builtin = c?.builtin ?? m?.builtin ?? false;
    return { name, c, builtin, exec: c ? execText(c.builtin, c.exec) : m ? execText(m.builtin, m.exec) : "" };
  });
  const uses = new Map<string, number>();
  for (const e of entries) if (e.builtin) uses.set(e.exec, (uses.get(e.exec) ?? 0) + 1);
  const shared = [...uses].filter(([, n]) => n > 1).map(([exec]) => exec);
  let failed = 0;
  for (const { name, c, builtin, exec } of entries) {
    const problem = badConfig.get(name) ?? (c && !c.ok ? c.problem : undefined);
    if (problem !== undefined || !c?.ok) failed++;
    const shown = shared.length === 1 && shared[0] === exec ? "(shared process, below)" : exec;
    rows.push([
      name,
      builtin ? "built-in" : "bound",
      c?.ok ? "ok" : "FAILED",
      ms(c?.startMs),
      ms(c?.roundTripMs),
      shown,
    ]);
    if (problem) causes.push(`${name}: ${problem}`);
  }
  const total = rows.length - 1;
  return {
    lines: [
      `profile ${manifest.profile}: ${count(total, "module")}, with steering (the console adds it)`,
      // Module names and command lines come from config files: inert before they are measured.
      new Table(rows.map((r) => r.map((cell) => sanitizeLine(cell)))),
      ...(shared.length === 1 ? [`shared built-in process: ${shared[0]}`] : []),
      ...causes,
      failed ? `${failed} of ${count(total, "module")} FAILED` : `all ${count(total, "module")} ok`,
    ],
    failed,
  };
}
