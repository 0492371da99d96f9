// The grep pattern as the model writes it: JavaScript syntax, plus the leading inline flags of PCRE and
// ripgrep (`(?i)`, `(?s)`, `(?m)`, `(?is)` …), which JavaScript refuses but models write all the time.
// Flags inside the pattern are JavaScript's own scoped form, `(?i:…)`.

const INLINE = /^\(\?([a-zA-Z]+)\)/;
/** inline flag → RegExp flag; m changes nothing for a line-by-line search but is accepted */
const FLAGS: Record<string, string> = { i: "i", s: "s", m: "m", u: "u" };

export type Compiled = { ok: true; re: RegExp; source: string } | { ok: false; error: string };

export function compilePattern(pattern: string, ignoreCase: boolean): Compiled {
  let source = pattern;
  const flags = new Set<string>(ignoreCase ? ["i"] : []);
  for (let m = INLINE.exec(source); m; m = INLINE.exec(source)) {
    for (const f of m[1] as string) {
      const flag = FLAGS[f];
      if (!flag)
        return {
          ok: false,
          error: `the inline flag (?${f}) is not supported; use (?i), (?s) or (?m), or rewrite the pattern without it`,
        };
      flags.add(flag);
    }
    source = source.slice(m[0].length);
  }
  if (source === "") return { ok: false, error: "the pattern is empty once its inline flags are removed" };
  try {
    return { ok: true, re: new RegExp(source, [...flags].join("")), source };
  } catch (err) {
    const hint = /\(\?[a-zA-Z]+\)/.test(source)
      ? " (inline flags like (?i) are accepted only at the start; inside, write (?i:…))"
      : "";
    return { ok: false, error: `invalid regular expression: ${(err as Error).message}${hint}` };
  }
}
