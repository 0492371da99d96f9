// The rows `i doctor` prints and how a check becomes one: run the same function a run calls, and turn
// its UserError into a FAILED row whose message is the run's own one-line error.
import { UserError } from "../contract/errors.ts";
import { sanitize, sanitizeLine } from "../terminal/sanitize.ts";
import { type Style, stdoutStyle } from "../terminal/style.ts";

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

/** `paint` colours a cell after its width is measured, so escape codes never count as columns. */
export function table(rows: string[][], indent = "", paint?: (cell: string, col: number) => string): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  return rows
    .map((r) => {
      const cells = r.map((cell, c) => {
        const pad = " ".repeat(Math.max(0, (widths[c] ?? 0) - cell.length));
        return (paint ? paint(cell, c) : cell) + pad;
      });
      return indent + cells.join("  ").trimEnd();
    })
    .join("\n");
}

/** Text made inert before it was coloured: printed as it is, never sanitised again (that would show the SGR). */
export class Painted {
  constructor(readonly text: string) {}
}

/** One line of the report: untrusted text (sanitised when printed) or a Painted one. */
export type Line = string | Painted;

/** The report as it goes to the terminal: plain lines sanitised, Painted ones kept. */
export function render(lines: Line[]): string {
  return lines.map((l) => (l instanceof Painted ? l.text : sanitize(l))).join("\n");
}

function statusPaint(style: Style): (status: string) => string {
  return (status) =>
    status === "ok"
      ? style.green(status)
      : status === "FAILED"
        ? style.red(status)
        : status === "differs"
          ? style.yellow(status)
          : style.dim(status);
}

/**
 * A section: its rows as a table, then the problem of each FAILED row on its own line. The status column
 * is coloured (consola's colours, only when stdout is a colour terminal); names and details come from
 * config files, so each cell is made inert first.
 */
export function section(title: string, rows: Row[], style: Style = stdoutStyle): Line[] {
  const paint = statusPaint(style);
  const cells = rows.map((r) => [sanitizeLine(r.name), r.status, sanitizeLine(r.detail)]);
  const out: Line[] = [title, new Painted(table(cells, "  ", (cell, c) => (c === 1 ? paint(cell) : cell)))];
  for (const r of rows) if (r.problem) out.push(`  ${r.problem}`);
  return out;
}
