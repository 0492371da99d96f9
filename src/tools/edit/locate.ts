// Where one edit applies in a file. Exact text first; then line by line, each tier a little more
// forgiving (trailing whitespace, indentation, typographic punctuation), and the first tier that matches
// decides. Every line of old_text must match, in order: a match is never anchored on a few lines with
// the others ignored, so an edit cannot swallow code the model did not quote. More than one match is
// refused unless replace_all asks for every one.
import { type FileLines, lineEnd, lineOf, splitText, trimBlankEnds } from "./lines.ts";
import { asciiPunctuation, LINE_TIERS, type LineTier, lineKey } from "./normalize.ts";
import { fitNewLines, indentUnit } from "./reindent.ts";

export type Tier = "exact" | LineTier | "inline-punctuation";

export interface Replacement {
  /** range of the file's text that is replaced */
  start: number;
  end: number;
  text: string;
}

export type Located =
  | { ok: true; tier: Tier; replacements: Replacement[]; lines: number[] }
  | { ok: false; why: "ambiguous"; tier: Tier; lines: number[] }
  | { ok: false; why: "not_found" };

export interface EditSpec {
  old_text: string;
  new_text: string;
  replace_all?: boolean;
}

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** old_text and new_text with the file's line endings: a model writes \n, or \r\n to an LF file. */
function withFileEndings(f: FileLines, s: string): string {
  const lf = s.replace(/\r\n/g, "\n");
  return f.eol === "\r\n" ? lf.replace(/\n/g, "\r\n") : lf;
}

function byText(
  f: FileLines,
  tier: Tier,
  oldText: string,
  newText: string,
  all: boolean,
  hay: string,
): Located | undefined {
  const at = occurrences(hay, oldText);
  if (at.length === 0) return undefined;
  const lines = at.map((o) => lineOf(f, o));
  if (at.length > 1 && !all) return { ok: false, why: "ambiguous", tier, lines };
  return {
    ok: true,
    tier,
    lines,
    replacements: at.map((start) => ({ start, end: start + oldText.length, text: newText })),
  };
}

/** Start lines where every line of `want` equals the file's under `tier` (non-overlapping). */
function lineMatches(f: FileLines, tier: LineTier, want: string[]): number[] {
  const keys = want.map((l) => lineKey(tier, l));
  const first = keys[0] as string;
  const out: number[] = [];
  const have = new Map<number, string>();
  const key = (i: number) => {
    const known = have.get(i);
    if (known !== undefined) return known;
    const k = lineKey(tier, f.bare[i] as string);
    have.set(i, k);
    return k;
  };
  outer: for (let i = 0; i + keys.length <= f.bare.length; i++) {
    if (key(i) !== first) continue;
    for (let k = 1; k < keys.length; k++) if (key(i + k) !== keys[k]) continue outer;
    out.push(i);
    i += keys.length - 1;
  }
  return out;
}

/** Find where `edit` applies in the file. */
export function locate(f: FileLines, edit: EditSpec): Located {
  const all = edit.replace_all === true;
  const oldText = withFileEndings(f, edit.old_text);
  const newText = withFileEndings(f, edit.new_text);
  const exact = byText(f, "exact", oldText, newText, all, f.text);
  if (exact) return exact;
  const old = trimBlankEnds(splitText(edit.old_text));
  if (old.lines.length > 0) {
    let newLines = splitText(edit.new_text);
    // Blank lines the model put around old_text are not required of the file; the same ones around
    // new_text go with them.
    let lead = 0;
    while (lead < old.lead && lead < newLines.length && (newLines[lead] as string).trim() === "") lead++;
    let trail = 0;
    while (
      trail < old.trail &&
      newLines.length - trail > lead &&
      (newLines.at(-1 - trail) as string).trim() === ""
    )
      trail++;
    newLines = newLines.slice(lead, newLines.length - trail);
    let fileUnit: number | undefined;
    let modelUnit: number | undefined;
    const units = {
      file: () => (fileUnit ??= indentUnit(f.bare)),
      model: () => (modelUnit ??= indentUnit([...old.lines, ...newLines])),
    };
    for (const tier of LINE_TIERS) {
      const at = lineMatches(f, tier, old.lines);
      if (at.length === 0) continue;
      const lines = at.map((i) => i + 1);
      if (at.length > 1 && !all) return { ok: false, why: "ambiguous", tier, lines };
      const n = old.lines.length;
      const replacements = at.map((i) => {
        const matched = f.bare.slice(i, i + n);
        const fitted = fitNewLines(matched, old.lines, newLines, units);
        let start = f.starts[i] as number;
        let end = lineEnd(f, i + n - 1);
        if (fitted.length === 0) {
          // The lines go, with one line ending: no empty line is left where they were.
          if (i + n < f.starts.length) end = f.starts[i + n] as number;
          else if (i > 0) start = lineEnd(f, i - 1);
        }
        return { start, end, text: fitted.join(f.eol) };
      });
      return { ok: true, tier, lines, replacements };
    }
  }
  // Inside a line: the same text once typographic punctuation is read as ASCII (offsets are unchanged).
  const inline = byText(
    f,
    "inline-punctuation",
    asciiPunctuation(oldText),
    newText,
    all,
    asciiPunctuation(f.text),
  );
  return inline ?? { ok: false, why: "not_found" };
}
