// Several edits of one file, all located in the file as it is, then applied together or not at all.
import { notFoundHint } from "../edit-hint.ts";
import { ToolError } from "../tool-error.ts";
import { type FileLines, lineOf } from "./lines.ts";
import { type EditSpec, locate, type Replacement, type Tier } from "./locate.ts";
import { TIER_NOTE } from "./normalize.ts";

export interface Applied {
  text: string;
  /** per edit: its 1-based start lines in the original file and how it matched */
  edits: { lines: number[]; tier: Tier }[];
  /** changed ranges of the new text, in order */
  changed: { start: number; end: number }[];
}

export const listLines = (lines: number[]) => {
  const shown = lines.slice(0, 10).join(", ");
  return lines.length > 10 ? `${shown}, …` : shown;
};

const TIER_WORDS: Record<Exclude<Tier, "exact">, string> = {
  "trailing-whitespace": "when trailing whitespace is ignored",
  indentation: "when indentation is ignored",
  punctuation: "when whitespace and typographic punctuation are ignored",
  "inline-punctuation": "when typographic punctuation is ignored",
};

/** Locate every edit, refuse overlaps, and build the new text. Throws a ToolError naming the edit. */
export function applyEdits(f: FileLines, shown: string, edits: EditSpec[]): Applied {
  const many = edits.length > 1;
  const label = (i: number) => (many ? `edit ${i + 1} of ${edits.length}: ` : "");
  const none = many ? "; no edit was applied" : "";
  const all: (Replacement & { edit: number })[] = [];
  const summary: Applied["edits"] = [];
  edits.forEach((e, i) => {
    if (e.old_text === "")
      throw new ToolError(`${label(i)}old_text is empty; to write a whole file use write`);
    if (e.old_text === e.new_text)
      throw new ToolError(`${label(i)}old_text and new_text are the same; nothing to change${none}`);
    const r = locate(f, e);
    if (!r.ok && r.why === "not_found")
      throw new ToolError(
        `${label(i)}old_text was not found in ${shown}: ${notFoundHint(f, e.old_text)}${none}`,
      );
    if (!r.ok) {
      const how = r.tier === "exact" ? "occurs" : `matches ${TIER_WORDS[r.tier]}`;
      const count = r.tier === "exact" ? `${r.lines.length} times` : `at ${r.lines.length} places`;
      throw new ToolError(
        `${label(i)}old_text ${how} ${count} in ${shown} (lines ${listLines(r.lines)}); include more surrounding lines to make it unique, or set replace_all to replace every occurrence${none}`,
      );
    }
    summary.push({ lines: r.lines, tier: r.tier });
    for (const rep of r.replacements) all.push({ ...rep, edit: i });
  });
  all.sort((a, b) => a.start - b.start);
  for (let k = 1; k < all.length; k++) {
    const a = all[k - 1] as Replacement & { edit: number };
    const b = all[k] as Replacement & { edit: number };
    if (b.start < a.end) {
      const [x, y] = [a.edit, b.edit].sort((p, q) => p - q) as [number, number];
      throw new ToolError(
        `edits ${x + 1} and ${y + 1} change overlapping text of ${shown} (line ${lineOf(f, b.start)}); merge them into one edit; no edit was applied`,
      );
    }
  }
  let text = "";
  let prev = 0;
  const changed: Applied["changed"] = [];
  for (const rep of all) {
    text += f.text.slice(prev, rep.start);
    changed.push({ start: text.length, end: text.length + rep.text.length });
    text += rep.text;
    prev = rep.end;
  }
  text += f.text.slice(prev);
  return { text, edits: summary, changed };
}

/** The note on how an edit that was not exact matched (for the model, so it copies better next time). */
export function tierNote(tier: Tier): string | undefined {
  return tier === "exact" ? undefined : TIER_NOTE[tier];
}
