// How many single-character insertions, deletions and substitutions turn one string into another: the
// measure behind "did you mean" suggestions (a mistyped config key, the line an edit probably meant).

export function levenshtein(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, (prev[j] as number) + 1, (cur[j - 1] as number) + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/** The candidate `word` is most likely a typo of: at most 2 edits away (1 for short words), case aside. */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const allowed = w.length <= 4 ? 1 : 2;
  let best: { word: string; d: number } | undefined;
  for (const c of candidates) {
    const d = levenshtein(w, c.toLowerCase());
    if (d <= allowed && (!best || d < best.d)) best = { word: c, d };
  }
  return best?.word;
}
