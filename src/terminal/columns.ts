// A two-column list (a term, then what it means) fitted to a width: the descriptions wrap under their own
// column, so a long one never runs back to the left edge where the terms are; a term too wide for its
// column sits on a line of its own with its description below. Used by `i --help` and the console's /help.
import { padEnd, visibleWidth, wrap } from "./width.ts";

export interface ColumnsOptions {
  /** spaces before each term */
  indent?: number;
  /** the widest term that still gets the description beside it (default: a third of the width) */
  maxTerm?: number;
}

/** Narrower than this, a description column would be unreadable: descriptions go below their terms. */
const MIN_DESCRIPTION = 24;

export function columns(
  rows: ReadonlyArray<readonly [string, string]>,
  width: number,
  opts: ColumnsOptions = {},
): string[] {
  const indent = " ".repeat(opts.indent ?? 0);
  const maxTerm = opts.maxTerm ?? Math.floor(width / 3);
  const fitting = rows.map(([t]) => visibleWidth(t)).filter((w) => w <= maxTerm);
  const termCol = fitting.length > 0 ? Math.max(...fitting) : 0;
  let descCol = indent.length + termCol + 2;
  if (width - descCol < MIN_DESCRIPTION) descCol = indent.length + 4;
  const pad = " ".repeat(descCol);
  const out: string[] = [];
  for (const [term, desc] of rows) {
    const lines = wrap(desc, Math.max(MIN_DESCRIPTION, width - descCol));
    const head = `${indent}${term}`;
    if (visibleWidth(head) + 2 <= descCol) {
      out.push(`${padEnd(head, descCol)}${lines[0] ?? ""}`.trimEnd());
      for (const l of lines.slice(1)) out.push(`${pad}${l}`);
    } else {
      out.push(head);
      for (const l of lines) out.push(`${pad}${l}`);
    }
  }
  return out;
}
