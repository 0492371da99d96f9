// When `edit` cannot find old_text, say where the model probably meant, so its next attempt succeeds.
import { levenshtein } from "../lib/edit-distance.ts";

const MAX_SHOWN = 160;
/** Edit-distance work allowed for one hint (cells of the DP table), so huge files stay quick. */
const DISTANCE_BUDGET = 4_000_000;

function squash(s: string): string {
  return s.trim().replace(/\s+/g, " ");
}

function clip(s: string): string {
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
}

/** The 1-based line where the lines of `old` appear when whitespace differences are ignored. */
function whitespaceInsensitiveMatch(fileLines: string[], oldLines: string[]): number | undefined {
  const want = oldLines.map(squash);
  while (want.length > 0 && want[0] === "") want.shift();
  while (want.length > 0 && want[want.length - 1] === "") want.pop();
  if (want.length === 0) return undefined;
  const have = fileLines.map(squash);
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let k = 0; k < want.length; k++) if (have[i + k] !== want[k]) continue outer;
    return i + 1;
  }
  return undefined;
}

/** The 1-based number and text of the file line most like `needle` (within the work budget). */
function closestLine(fileLines: string[], needle: string): { line: number; text: string } | undefined {
  const target = needle.trim().slice(0, 300);
  if (target === "") return undefined;
  let best: { line: number; text: string; d: number } | undefined;
  let budget = DISTANCE_BUDGET;
  for (let i = 0; i < fileLines.length && budget > 0; i++) {
    const cand = (fileLines[i] as string).trim().slice(0, 300);
    if (cand === "") continue;
    budget -= cand.length * target.length;
    const d = levenshtein(cand, target);
    if (!best || d < best.d) best = { line: i + 1, text: fileLines[i] as string, d };
  }
  // A line sharing less than half of the text is no hint at all.
  return best && best.d <= target.length / 2 ? best : undefined;
}

/** A sentence explaining why old_text is not in `text` and where the intended spot probably is. */
export function notFoundHint(text: string, oldText: string): string {
  const oldLines = oldText.split(/\r?\n/);
  if (oldLines.filter((l) => l.trim() !== "").every((l) => /^\s*\d+\t/.test(l))) {
    return "old_text seems to include the line numbers shown by read; leave out the number and tab at the start of each line";
  }
  const fileLines = text.split(/\r?\n/);
  const ws = whitespaceInsensitiveMatch(fileLines, oldLines);
  if (ws !== undefined) {
    return `it matches at line ${ws} only if whitespace is ignored; copy the exact indentation and spacing from read output`;
  }
  const first = oldLines.find((l) => l.trim() !== "") ?? "";
  const near = closestLine(fileLines, first);
  if (near) {
    return `the closest line to its first line is ${near.line}: "${clip(near.text.trim())}"; read that part of the file again and copy old_text exactly`;
  }
  return "nothing similar was found; read the file again and copy old_text exactly, whitespace included";
}
