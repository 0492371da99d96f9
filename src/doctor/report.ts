// The rows `i doctor` prints and how a check becomes one: run the same function a run calls, and turn
// its UserError into a FAILED row whose message is the run's own one-line error.
import { UserError } from "../contract/errors.ts";
import { sanitize, sanitizeLine } from "../terminal/sanitize.ts";
import { type Style, stdoutStyle } from "../terminal/style.ts";
import { padEnd, visibleWidth, wrap } from "../terminal/width.ts";

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

/** "1 module", "8 modules": counted nouns in the report read as words, not as "module(s)". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** `s` as one POSIX shell word (quoted only when it needs to be). */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Rows of cells in aligned columns. Fitted to a width when printed: the last column (the free text) wraps
 * under itself, so a long detail never runs back under the names. `paint` colours a cell after its width
 * is measured, so escape codes never count as columns; cells must already be inert.
 */
export class Table {
  constructor(
    readonly rows: string[][],
    readonly indent = "",
    readonly paint?: (cell: string, col: number) => string,
  ) {}

  lines(width?: number): string[] {
    const widths =
      this.rows[0]?.map((_, c) => Math.max(...this.rows.map((r) => visibleWidth(r[c] ?? "")))) ?? [];
    return this.rows.flatMap((r) => {
      const cells = r.map((cell, c) => (this.paint ? this.paint(cell, c) : cell));
      const last = cells.length - 1;
      const head = cells.slice(0, last).map((cell, c) => padEnd(cell, widths[c] ?? 0));
      const lead = this.indent + head.map((h) => `${h}  `).join("");
      const line = `${lead}${cells[last] ?? ""}`.trimEnd();
      if (width === undefined || visibleWidth(line) <= width) return [line];
      const col = visibleWidth(lead);
      // Too little room beside the other columns: the last cell goes below them, further in.
      if (width - col < MIN_TEXT) {
        const hang = this.indent.length + 4;
        const below = wrap(cells[last] ?? "", width - hang).map((l) => " ".repeat(hang) + l);
        return [...wrap(lead.trimEnd(), width, hang), ...below];
      }
      const [first = "", ...more] = wrap(cells[last] ?? "", width - col);
      return [lead + first, ...more.map((l) => " ".repeat(col) + l)];
    });
  }
}

/** Narrower than this, a column of free text would be unreadable. */
const MIN_TEXT = 20;

/** Text made inert before it was coloured: printed as it is, never sanitised again (that would show the SGR). */
export class Painted {
  constructor(readonly text: string) {}
}

/** One line of the report: untrusted text (sanitised when printed), a Painted one, or a Table. */
export type Line = string | Painted | Table;

/**
 * The report as it goes to the terminal: plain lines sanitised, Painted ones kept. With `width` (stdout
 * is a terminal), lines wrap at spaces to fit it, continuation lines two columns further in than their
 * first, table rows under their last column; without, every line stays whole for grep and logs.
 */
export function render(lines: Line[], width?: number): string {
  // Narrower than a column of text, fitting would only shred every line: the terminal wraps them.
  const fit = width !== undefined && width >= MIN_TEXT ? width : undefined;
  return lines
    .flatMap((l) => {
      if (l instanceof Table) return l.lines(fit);
      const text = l instanceof Painted ? l.text : sanitize(l);
      if (fit === undefined) return [text];
      return text.split("\n").flatMap((t) => {
        // The indent is kept whole (never a break point) and the text wraps in the room after it.
        const lead = t.match(/^ */)?.[0] ?? "";
        return wrap(t.slice(lead.length), fit - lead.length, 2).map((x) => lead + x);
      });
    })
    .join("\n");
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
  const out: Line[] = [title, new Table(cells, "  ", (cell, c) => (c === 1 ? paint(cell) : cell))];
  for (const r of rows) if (r.problem) out.push(`  ${r.problem}`);
  return out;
}
