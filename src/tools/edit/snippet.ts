// A few numbered lines around each change, as read shows them: the model sees what the file now says
// there without reading it again.
import { lineOf, splitFile } from "./lines.ts";

const CONTEXT_LINES = 2;
const MAX_LINES_PER_CHANGE = 12;
const MAX_BLOCKS = 4;
const MAX_LINE_CHARS = 200;

/** Numbered lines around the changed ranges (offsets into `text`). */
export function snippet(text: string, changed: { start: number; end: number }[]): string {
  const f = splitFile(text);
  return snippetLines(
    text,
    changed.map((c) => ({ first: lineOf(f, c.start), last: lineOf(f, Math.max(c.start, c.end - 1)) })),
  );
}

/** Numbered lines around the changed lines (1-based, in order). */
export function snippetLines(text: string, changed: { first: number; last: number }[]): string {
  const f = splitFile(text);
  // A final line ending does not start another line worth showing.
  const total = Math.max(1, text.endsWith("\n") ? f.bare.length - 1 : f.bare.length);
  const spans: { first: number; last: number }[] = [];
  for (const c of changed) {
    const first = Math.max(1, c.first - CONTEXT_LINES);
    const last = Math.min(total, c.last + CONTEXT_LINES);
    const prev = spans.at(-1);
    if (prev && first <= prev.last + 1) prev.last = Math.max(prev.last, last);
    else spans.push({ first, last });
  }
  const blocks = spans.slice(0, MAX_BLOCKS).map(({ first, last }) => {
    const end = Math.min(last, first + MAX_LINES_PER_CHANGE - 1);
    const lines: string[] = [];
    for (let n = first; n <= end; n++) {
      const l = f.bare[n - 1] as string;
      lines.push(`${n}\t${l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l}`);
    }
    if (end < last) lines.push(`[… ${last - end} more changed lines]`);
    return lines.join("\n");
  });
  if (spans.length > MAX_BLOCKS) blocks.push(`[… ${spans.length - MAX_BLOCKS} more changed places]`);
  return blocks.join("\n…\n");
}
