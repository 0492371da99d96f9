// new_text for a match that was not exact. Lines new_text keeps from old_text are taken from the file as
// they are (its whitespace and punctuation, not the model's retyping); changed lines get the indentation
// the file actually uses: when old_text was indented by 2 and the file by 4, a line new_text indents one
// level deeper lands one of the file's levels deeper.

const TAB_COLUMNS = 4;
/** Above this many cells the line pairing falls back to common head and tail lines (still correct). */
const PAIRING_BUDGET = 4_000_000;

const indentOf = (s: string): string => /^[ \t]*/.exec(s)?.[0] ?? "";
const columns = (indent: string): number => {
  let c = 0;
  for (const ch of indent) c += ch === "\t" ? TAB_COLUMNS : 1;
  return c;
};

/** For each line of `b`, the index of the equal line of `a` it keeps (longest common subsequence). */
function pairLines(a: string[], b: string[]): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(b.length).fill(undefined);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) out[head] = head++;
  let ta = a.length;
  let tb = b.length;
  while (ta > head && tb > head && a[ta - 1] === b[tb - 1]) out[--tb] = --ta;
  const n = ta - head;
  const m = tb - head;
  if (n === 0 || m === 0 || n * m > PAIRING_BUDGET) return out;
  // lcs[i][j]: common subsequence length of a[head+i..ta) and b[head+j..tb)
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i] as Uint32Array;
    const next = lcs[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--) {
      row[j] =
        a[head + i] === b[head + j]
          ? (next[j + 1] as number) + 1
          : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[head + i] === b[head + j]) {
      out[head + j] = head + i;
      i++;
      j++;
    } else if (((lcs[i + 1] as Uint32Array)[j] as number) >= ((lcs[i] as Uint32Array)[j + 1] as number)) i++;
    else j++;
  }
  return out;
}

/** The indentation step most used between consecutive non-blank lines, in columns (0: none seen). */
export function indentUnit(lines: Iterable<string>, limit = 2000): number {
  const counts = new Map<number, number>();
  let prev: number | undefined;
  let seen = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (++seen > limit) break;
    const c = columns(indentOf(line));
    if (prev !== undefined && c > prev) counts.set(c - prev, (counts.get(c - prev) ?? 0) + 1);
    prev = c;
  }
  let best = 0;
  let most = 0;
  for (const [step, n] of counts) if (n > most || (n === most && step < best)) [best, most] = [step, n];
  return best;
}

export interface IndentMap {
  /** the file's indentation for a line the model indented `modelIndent` */
  (modelIndent: string): string;
  identity: boolean;
}

/**
 * How the model's indentation maps to the file's, from the matched pairs of lines: the exact strings
 * seen first, else a linear map from the shallowest pair (the scale from the pairs at other depths, or
 * else from the indentation steps of the file and of the model's text).
 */
export function indentMap(
  fileLines: string[],
  oldLines: string[],
  fileUnit: () => number,
  modelUnit: () => number,
): IndentMap {
  const seen = new Map<number, string>();
  let identity = true;
  let base: { o: number; f: number } | undefined;
  let tabs = true;
  let anyIndent = false;
  const pairs: { o: number; f: number }[] = [];
  oldLines.forEach((o, k) => {
    const f = fileLines[k] as string;
    if (o.trim() === "") return;
    const oi = indentOf(o);
    const fi = indentOf(f);
    if (oi !== fi) identity = false;
    if (fi !== "") {
      anyIndent = true;
      if (/ /.test(fi)) tabs = false;
    }
    const p = { o: columns(oi), f: columns(fi) };
    if (!seen.has(p.o)) seen.set(p.o, fi);
    pairs.push(p);
    if (!base || p.o < base.o) base = p;
  });
  const useTabs = anyIndent && tabs;
  let scale: number | undefined;
  for (const p of pairs) if (base && p.o !== base.o) scale ??= (p.f - base.f) / (p.o - base.o);
  if (scale === undefined || !(scale > 0)) {
    const fu = fileUnit();
    const mu = modelUnit();
    scale = fu > 0 && mu > 0 ? fu / mu : 1;
  }
  const s = scale;
  const map = ((modelIndent: string) => {
    const o = columns(modelIndent);
    const known = seen.get(o);
    if (known !== undefined) return known;
    const b = base ?? { o: 0, f: 0 };
    const f = Math.max(0, Math.round(b.f + (o - b.o) * s));
    return useTabs ? "\t".repeat(Math.round(f / TAB_COLUMNS)) : " ".repeat(f);
  }) as IndentMap;
  map.identity = identity;
  return map;
}

/**
 * The lines that replace `fileLines` (the matched lines of the file, where the model wrote `oldLines`):
 * new_text's lines, unchanged ones as the file has them, the others in the file's indentation.
 */
export function fitNewLines(
  fileLines: string[],
  oldLines: string[],
  newLines: string[],
  units: { file: () => number; model: () => number },
): string[] {
  const kept = pairLines(oldLines, newLines);
  const map = indentMap(fileLines, oldLines, units.file, units.model);
  return newLines.map((line, j) => {
    const k = kept[j];
    if (k !== undefined) return fileLines[k] as string;
    if (line.trim() === "") return "";
    if (map.identity) return line;
    const indent = indentOf(line);
    return map(indent) + line.slice(indent.length);
  });
}
