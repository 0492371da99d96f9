// When old_text matches nowhere: the part of the file it most looks like, with line numbers, and the first
// line that differs, so the model's next attempt copies the right text instead of guessing again.
import { levenshtein } from "../../lib/edit-distance.ts";
import { type FileLines, splitText, trimBlankEnds } from "./lines.ts";
import { lineKey } from "./normalize.ts";

const MAX_SHOWN_CHARS = 160;
const MAX_WINDOW_LINES = 12;
/** Edit-distance work allowed when no line matches at all (cells of the DP table). */
const DISTANCE_BUDGET = 4_000_000;

const clip = (s: string) => (s.length > MAX_SHOWN_CHARS ? `${s.slice(0, MAX_SHOWN_CHARS)}…` : s);

const onlySpacing = (a: string, b: string) => a.replace(/\s+/g, "") === b.replace(/\s+/g, "");

/** The start line (0-based) where most lines of `want` equal the file's, loosely; -1 when none does. */
function bestStart(f: FileLines, want: string[]): number {
  const index = new Map<string, number[]>();
  f.bare.forEach((line, i) => {
    const k = lineKey("punctuation", line);
    if (k === "") return;
    const list = index.get(k);
    if (list) list.push(i);
    else index.set(k, [i]);
  });
  const score = new Map<number, number>();
  want.forEach((line, k) => {
    for (const i of index.get(lineKey("punctuation", line)) ?? []) {
      if (i - k >= 0) score.set(i - k, (score.get(i - k) ?? 0) + 1);
    }
  });
  let best = -1;
  let most = 0;
  for (const [start, n] of score) if (n > most || (n === most && start < best)) [best, most] = [start, n];
  return best;
}

/** The file line most like `needle` by edit distance (within the work budget), or -1. */
function closestLine(f: FileLines, needle: string): number {
  const target = needle.trim().slice(0, 300);
  if (target === "") return -1;
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  let budget = DISTANCE_BUDGET;
  for (let i = 0; i < f.bare.length && budget > 0; i++) {
    const cand = (f.bare[i] as string).trim().slice(0, 300);
    if (cand === "") continue;
    budget -= cand.length * target.length;
    const d = levenshtein(cand, target);
    if (d < bestD) [best, bestD] = [i, d];
  }
  // A line sharing less than half of the text is no hint at all.
  return bestD <= target.length / 2 ? best : -1;
}

/** Sentences showing the closest part of the file, or undefined when nothing is similar. */
export function closestWindow(f: FileLines, oldText: string): string | undefined {
  const want = trimBlankEnds(splitText(oldText)).lines;
  if (want.length === 0) return undefined;
  let start = bestStart(f, want);
  if (start === -1) {
    const first = want.findIndex((l) => l.trim() !== "");
    const at = closestLine(f, want[first] as string);
    if (at === -1) return undefined;
    start = Math.max(0, at - first);
  }
  const end = Math.min(f.bare.length, start + want.length);
  const shownEnd = Math.min(end, start + MAX_WINDOW_LINES);
  const shown = f.bare
    .slice(start, shownEnd)
    .map((l, k) => `${start + k + 1}\t${clip(l)}`)
    .join("\n");
  const more = end > shownEnd ? `\n[… ${end - shownEnd} more lines]` : "";
  const k = want.findIndex(
    (l, j) => lineKey("punctuation", l) !== lineKey("punctuation", f.bare[start + j] ?? ""),
  );
  const differs =
    k === -1
      ? "old_text goes on past the end of the file"
      : start + k >= f.bare.length
        ? `old_text line ${k + 1} "${clip((want[k] as string).trim())}" is past the end of the file`
        : `the first line that differs is line ${start + k + 1}: the file has "${clip((f.bare[start + k] as string).trim())}", old_text line ${k + 1} has "${clip((want[k] as string).trim())}"${onlySpacing(f.bare[start + k] as string, want[k] as string) ? " (only whitespace inside the line differs)" : ""}`;
  const where = end - start === 1 ? `line ${end}` : `lines ${start + 1}-${end}`;
  return `the closest part of the file is ${where}:\n${shown}${more}\n${differs}; copy old_text from the file exactly (read it again if it may have changed)`;
}
