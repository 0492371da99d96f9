// A line diff of what a file tool changed, as unified-diff hunks with line numbers, for the console to show.
// Myers' O(ND) algorithm after trimming the common head and tail (an edit touches a few lines of a large
// file, so D stays small); past MAX_EDIT_DISTANCE the changed middle is shown as removed-then-added.
import type { DiffLine } from "../contract/events.ts";

export type { DiffLine };

export interface FileDiff {
  added: number;
  removed: number;
  /** hunks of changed lines with up to `context` lines around them; at most `maxLines` lines in all */
  hunks: DiffLine[][];
  /** lines left out of `hunks` to stay within maxLines */
  omitted: number;
}

const MAX_EDIT_DISTANCE = 2000;

function splitLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The edit script between a and b (Myers), or undefined when it needs more than `maxD` edits. */
function myers(a: string[], b: string[], maxD: number): Array<" " | "-" | "+"> | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[off + k - 1] ?? 0) < (v[off + k + 1] ?? 0))) x = v[off + k + 1] ?? 0;
      else x = (v[off + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[off + k] = x;
      if (x >= n && y >= m) {
        trace.push(next);
        return backtrack(trace, n, m, off);
      }
    }
    v = next;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, off: number): Array<" " | "-" | "+"> {
  const ops: Array<" " | "-" | "+"> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[off + k - 1] ?? 0) < (v[off + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[off + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(" ");
      x--;
      y--;
    }
    if (d > 0) ops.push(down ? "+" : "-");
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** The diff of `before` → `after` in hunks with `context` lines around each change. */
export function diffFiles(
  before: string,
  after: string,
  opts: { context?: number; maxLines?: number } = {},
): FileDiff {
  const context = opts.context ?? 3;
  const maxLines = opts.maxLines ?? 80;
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops = myers(midA, midB, MAX_EDIT_DISTANCE) ?? [
    ...midA.map(() => "-" as const),
    ...midB.map(() => "+" as const),
  ];
  const all: DiffLine[] = [];
  for (let i = 0; i < head; i++) all.push({ op: " ", text: a[i] ?? "", old: i + 1, new: i + 1 });
  let x = head;
  let y = head;
  for (const op of ops) {
    if (op === " ") all.push({ op, text: a[x] ?? "", old: ++x, new: ++y });
    else if (op === "-") all.push({ op, text: a[x] ?? "", old: ++x });
    else all.push({ op, text: b[y] ?? "", new: ++y });
  }
  for (let i = 0; i < tail; i++) all.push({ op: " ", text: a[x] ?? "", old: ++x, new: ++y });

  let added = 0;
  let removed = 0;
  const keep = new Uint8Array(all.length);
  all.forEach((l, i) => {
    if (l.op === " ") return;
    if (l.op === "+") added++;
    else removed++;
    for (let j = Math.max(0, i - context); j <= Math.min(all.length - 1, i + context); j++) keep[j] = 1;
  });
  const hunks: DiffLine[][] = [];
  let shown = 0;
  let omitted = 0;
  let cur: DiffLine[] | undefined;
  all.forEach((l, i) => {
    if (!keep[i]) {
      cur = undefined;
      return;
    }
    if (shown >= maxLines) {
      omitted++;
      return;
    }
    if (!cur) {
      cur = [];
      hunks.push(cur);
    }
    cur.push(l);
    shown++;
  });
  return { added, removed, hunks, omitted };
}
