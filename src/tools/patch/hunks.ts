// An Update File's hunks applied to the file's text, with the matching of edit: each hunk's context and
// removed lines must all be there, in order, compared exactly first and then with the same tiers
// (trailing whitespace, indentation, typographic punctuation); a hunk is searched from where the
// previous one ended (after its @@ line, when it has one), so hunks apply in file order and never overlap.

import { closestWindow } from "../edit/closest.ts";
import type { FileLines } from "../edit/lines.ts";
import { LINE_TIERS, type LineTier, lineKey } from "../edit/normalize.ts";
import { fitNewLines, indentUnit } from "../edit/reindent.ts";
import { ToolError } from "../tool-error.ts";
import type { Chunk } from "./parse.ts";

type Tier = "exact" | LineTier;
const TIERS: readonly Tier[] = ["exact", ...LINE_TIERS];
const key = (tier: Tier, s: string) => (tier === "exact" ? s : lineKey(tier, s));

export interface Patched {
  text: string;
  /** 1-based first and last line of each changed region in the new text */
  spans: { first: number; last: number }[];
  fuzzy: boolean;
}

/** First index ≥ from where `want` matches `have` line for line under `tier` (only at `exactAt` if given). */
function seek(have: string[], want: string[], from: number, tier: Tier, exactAt?: number): number {
  const w = want.map((l) => key(tier, l));
  const fits = (i: number) => w.every((k, j) => key(tier, have[i + j] as string) === k);
  if (exactAt !== undefined) return exactAt >= from && exactAt >= 0 && fits(exactAt) ? exactAt : -1;
  for (let i = from; i + w.length <= have.length; i++) if (fits(i)) return i;
  return -1;
}

export function applyHunks(f: FileLines, path: string, chunks: Chunk[]): Patched {
  // The lines of the file; a final line ending does not make another line.
  const lines = f.text === "" ? [] : f.text.endsWith("\n") ? f.bare.slice(0, -1) : f.bare.slice();
  const finalEol = f.text.endsWith("\n");
  const units = {
    file: () => indentUnit(lines),
    model: () => indentUnit(chunks.flatMap((c) => [...c.old, ...c.new])),
  };
  const edits: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  let fuzzy = false;
  chunks.forEach((c, k) => {
    const label = `hunk ${k + 1} of ${path}`;
    if (c.anchor !== undefined) {
      const anchor = c.anchor;
      const at = TIERS.map((tier) => seek(lines, [anchor], cursor, tier)).find((i) => i !== -1) ?? -1;
      if (at === -1)
        throw new ToolError(
          `${label}: its @@ line "${c.anchor}" was not found after line ${cursor}; read the file again and copy that line exactly`,
        );
      cursor = at + 1;
    }
    if (c.old.length === 0) {
      const at = c.anchor !== undefined ? cursor : lines.length;
      edits.push({ at, remove: 0, insert: c.new });
      return;
    }
    let old = c.old;
    let nu = c.new;
    let at = -1;
    let used: Tier = "exact";
    for (let attempt = 0; attempt < 2 && at === -1; attempt++) {
      for (const tier of TIERS) {
        at = seek(lines, old, cursor, tier, c.atEnd ? lines.length - old.length : undefined);
        if (at !== -1) {
          used = tier;
          break;
        }
      }
      // A trailing empty context line the file does not have (models add one) is let go once.
      if (at === -1 && old.at(-1) === "" && nu.at(-1) === "") {
        old = old.slice(0, -1);
        nu = nu.slice(0, -1);
      } else break;
    }
    if (at === -1) {
      const near = closestWindow(f, old.join("\n"));
      throw new ToolError(
        `${label}: its context and removed lines were not found${c.atEnd ? " at the end of the file" : cursor > 0 ? ` after line ${cursor}` : ""}${near ? `; ${near}` : "; read the file again and copy the lines exactly"}`,
      );
    }
    if (used !== "exact") fuzzy = true;
    const insert = used === "exact" ? nu : fitNewLines(lines.slice(at, at + old.length), old, nu, units);
    edits.push({ at, remove: old.length, insert });
    cursor = at + old.length;
  });
  const out = lines.slice();
  for (let k = edits.length - 1; k >= 0; k--) {
    const e = edits[k] as (typeof edits)[number];
    out.splice(e.at, e.remove, ...e.insert);
  }
  // Where each change landed in the new text: earlier edits shift the later ones.
  let shift = 0;
  const spans = edits.map((e) => {
    const first = e.at + shift + 1;
    shift += e.insert.length - e.remove;
    return { first, last: Math.max(first, first + e.insert.length - 1) };
  });
  // The file keeps its final line ending, or its lack of one; an empty file given lines gets one.
  const ending = finalEol || lines.length === 0 ? f.eol : "";
  return { text: out.length === 0 ? "" : `${out.join(f.eol)}${ending}`, spans, fuzzy };
}
