// The rows `i doctor` prints and how a check becomes one: run the same function a run calls, and turn
// its UserError into a FAILED row whose message is the run's own one-line error.
import { UserError } from "../contract/errors.ts";

export type Status = "ok" | "FAILED" | "-" | "differs";

export interface Row {
  name: string;
  status: Status;
  detail: string;
  /** the one-line error a run would print, for FAILED rows */
  problem?: string;
}

/** Run `check`; its result's detail on success, its UserError as a FAILED row. Other errors propagate. */
export function attempt<T>(name: string, check: () => T, detail: (value: T) => string): Row & { value?: T } {
  try {
    const value = check();
    return { name, status: "ok", detail: detail(value), value };
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return { name, status: "FAILED", detail: "", problem: err.message };
  }
}

/** `s` as one POSIX shell word (quoted only when it needs to be). */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function table(rows: string[][], indent = ""): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  return rows
    .map(
      (r) =>
        indent +
        r
          .map((cell, c) => cell.padEnd(widths[c] ?? 0))
          .join("  ")
          .trimEnd(),
    )
    .join("\n");
}

/** A section: its rows as a table, then the problem of each FAILED row on its own line. */
export function section(title: string, rows: Row[]): string[] {
  const out = [
    title,
    table(
      rows.map((r) => [r.name, r.status, r.detail]),
      "  ",
    ),
  ];
  for (const r of rows) if (r.problem) out.push(`  ${r.problem}`);
  return out;
}
