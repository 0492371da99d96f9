// A file's text as lines with their offsets, so a match found line by line maps back to a range of the
// text and the line endings around it stay exactly as they were.

export interface FileLines {
  text: string;
  /** each line without its line ending (a CRLF's \r removed too) */
  bare: string[];
  /** offset of each line's first character in `text` */
  starts: number[];
  /** the file's line ending: CRLF when most lines end so, else LF */
  eol: "\n" | "\r\n";
}

export function splitFile(text: string): FileLines {
  const bare: string[] = [];
  const starts: number[] = [];
  let crlf = 0;
  let pos = 0;
  for (;;) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const cr = end > pos && text.charCodeAt(end - 1) === 13;
    if (cr && nl !== -1) crlf++;
    starts.push(pos);
    bare.push(text.slice(pos, cr ? end - 1 : end));
    if (nl === -1) break;
    pos = nl + 1;
  }
  const breaks = starts.length - 1;
  return { text, bare, starts, eol: breaks > 0 && crlf * 2 > breaks ? "\r\n" : "\n" };
}

/** Offset just past line `i`'s content (before its line ending). */
export function lineEnd(f: FileLines, i: number): number {
  return (f.starts[i] as number) + (f.bare[i] as string).length;
}

/** 1-based line of `offset` (binary search over the line starts). */
export function lineOf(f: FileLines, offset: number): number {
  let lo = 0;
  let hi = f.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((f.starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Lines of model text, line endings of either kind. */
export function splitText(s: string): string[] {
  return s.split(/\r?\n/);
}

/** `lines` without the blank lines at either end, and how many were dropped from each. */
export function trimBlankEnds(lines: string[]): { lines: string[]; lead: number; trail: number } {
  let a = 0;
  let b = lines.length;
  while (a < b && (lines[a] as string).trim() === "") a++;
  while (b > a && (lines[b - 1] as string).trim() === "") b--;
  return { lines: lines.slice(a, b), lead: a, trail: lines.length - b };
}
