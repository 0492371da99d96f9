// `i doctor`, workers part: one row per module — started, handshake passed, one round trip timed — and
// below the table each failure's cause. Modules whose own config file is bad were not started; they get
// their own FAILED row so the built-ins sharing a process with them are still reported one by one.

import type { Manifest } from "../contract/manifest.ts";
import type { ModuleName } from "../contract/registry.ts";
import { checkWorkers } from "../worker/doctor-check.ts";
import type { WorkerHost } from "../worker/host.ts";
import { shellWord, table } from "./report.ts";

const ms = (v: number | undefined) =>
  v === undefined ? "-" : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`;

/** What the EXEC column shows: built-ins by the modules their process serves, bound ones by their argv. */
function execText(builtin: boolean, exec: readonly string[]): string {
  if (builtin) return `i worker ${exec[exec.indexOf("worker") + 1] ?? ""}`;
  return exec.map(shellWord).join(" ");
}

export async function workerRows(
  manifest: Manifest,
  checked: Manifest,
  host: WorkerHost,
  badConfig: ReadonlyMap<ModuleName, string>,
): Promise<{ lines: string[]; failed: number }> {
  const checks = await checkWorkers(checked, host);
  const byName = new Map(checks.map((c) => [c.module, c]));
  const order = [...manifest.modules.map((m) => m.name), ...checked.modules.map((m) => m.name)];
  const rows = [["MODULE", "KIND", "EXEC", "STATUS", "START", "ROUND TRIP"]];
  const causes: string[] = [];
  let failed = 0;
  for (const name of new Set(order)) {
    const c = byName.get(name);
    const m = manifest.modules.find((x) => x.name === name);
    const kind = (c?.builtin ?? m?.builtin) ? "built-in" : "bound";
    const exec = c ? execText(c.builtin, c.exec) : m ? execText(m.builtin, m.exec) : "";
    const problem = badConfig.get(name) ?? (c && !c.ok ? c.problem : undefined);
    if (problem !== undefined || !c?.ok) failed++;
    rows.push([name, kind, exec, c?.ok ? "ok" : "FAILED", ms(c?.startMs), ms(c?.roundTripMs)]);
    if (problem) causes.push(`${name}: ${problem}`);
  }
  const total = rows.length - 1;
  return {
    lines: [
      `profile ${manifest.profile}: ${total} module(s), with steering (the console adds it)`,
      table(rows),
      ...causes,
      failed ? `${failed} of ${total} module(s) FAILED` : `all ${total} module(s) ok`,
    ],
    failed,
  };
}
