// A proposed file change as the approval question shows it: "proposed: PATH +A -R (not applied yet)" and
// its diff lines behind the question's `│` gutter, bounded so the question fits on the screen. It is drawn
// with the question (never committed to the transcript on its own): a refused change leaves nothing
// behind that reads like a change that was made; an approved one is shown by its result.
import type { DiffLine } from "../contract/events.ts";
import { sanitize, sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate } from "../terminal/width.ts";

/** Diff lines the question shows at most; the rest are counted. */
export const PROPOSAL_LINES = 16;

export interface ProposedDiff {
  added: number;
  removed: number;
  hunks: DiffLine[][];
  omitted: number;
}

export function proposalLines(path: string, d: ProposedDiff, s: Style, width: number): string[] {
  const head = `  ${s.yellow("proposed:")} ${sanitizeLine(path)} ${s.green(`+${d.added}`)} ${s.red(`-${d.removed}`)} ${s.dim("(not applied yet)")}`;
  const out = [truncate(head, width)];
  const numWidth = Math.max(1, ...d.hunks.flatMap((h) => h.map((l) => String(l.new ?? l.old ?? 0).length)));
  let shown = 0;
  let left = d.omitted;
  d.hunks.forEach((h, i) => {
    if (i > 0 && shown < PROPOSAL_LINES) out.push(s.dim(`  │ ${" ".repeat(numWidth)} ⋮`));
    for (const l of h) {
      if (shown >= PROPOSAL_LINES) {
        left++;
        continue;
      }
      const no = String(l.op === "-" ? l.old : l.new).padStart(numWidth);
      const paint = l.op === "+" ? s.green : l.op === "-" ? s.red : s.dim;
      out.push(truncate(`  ${s.dim("│")} ${paint(`${no} ${l.op} ${sanitize(l.text)}`)}`, width));
      shown++;
    }
  });
  if (left > 0) out.push(s.dim(`  │ … +${left} more diff lines`));
  return out;
}
