// Condensing a model summary that outgrew its budget, incrementally. Only the oldest part of the summary
// is sent back to the model; the newest part is kept as written. The condensed result is aimed well below
// the budget, so the summaries of the next compactions (each the previous summary plus what is new) fit
// as written again for a long stretch: condensing is rare, and each compaction condenses at most once.
//
// The budget is a share of the cap (summary-cap.ts), not the cap itself. The cap is the most the window
// affords a summary; a summary that large leaves the context at the hard limit after the commit, so the
// next compaction comes within a turn or two and most of them have to be summaries (measured: at 32k,
// past ~9,500 tokens of summary nearly every other turn summarised). Condensing before the cap keeps
// the window for the work. The cap stays the rule every summary must meet: one between the budget and
// the cap is still accepted when this compaction has already condensed.
//
// Why not condense the whole summary to just under the cap (the old rule): the next compaction's
// summary adds a few lines and is over again, so nearly every compaction paid a second model request for
// the whole summary, and the model rewrote (and could lose) what had only just been written. Here the
// newest part, what the next agent most needs, is never rewritten, and the rewrite costs a request the
// size of the oldest part once in many compactions.
import { PROMPTS } from "../contract/generated/prompts.ts";
import type { History } from "../contract/history.ts";
import { textTokens } from "../lib/estimator.ts";

/** A model summary longer than this share of the cap is condensed. */
export const CONDENSE_ABOVE_SHARE = 0.8;
/** The summary after condensing is aimed at this share of the cap. */
export const CONDENSE_TARGET_SHARE = 0.6;
/** The newest part kept as written: at most this share of the cap. */
export const CONDENSE_VERBATIM_SHARE = 0.3;
/** Joins the condensed oldest part and the newest part. */
const JOIN = "\n";
const NEWLINE_TOKENS = textTokens("\n");

export interface CondenseSplit {
  /** the oldest part, sent to be condensed */
  oldest: string;
  /** the newest part, kept as written */
  newest: string;
  /** tokens the condensed oldest part is asked to stay within */
  target: number;
}

/** Tokens above which a model summary is condensed. */
export function condenseBudget(cap: number): number {
  return Math.floor(cap * CONDENSE_ABOVE_SHARE);
}

/** Tokens of `text` as the cap counts them. */
export function summaryTokens(text: string): number {
  return Math.ceil(textTokens(text));
}

/**
 * Where to split a summary over its budget: the newest part is the longest run of whole lines at its end within
 * CONDENSE_VERBATIM_SHARE of the cap; everything before it is the oldest part. A summary whose last line
 * alone is longer than that keeps no newest part (it is condensed whole).
 */
export function splitForCondensing(summary: string, cap: number): CondenseSplit {
  const keep = Math.floor(cap * CONDENSE_VERBATIM_SHARE);
  const lines = summary.split("\n");
  // Whole lines from the end while they fit; the first line always stays in the oldest part. Counted per
  // line (the estimate is a sum over characters), so a long summary is measured once, not per line.
  let first = lines.length;
  let used = 0;
  while (first > 1) {
    const size = textTokens(lines[first - 1] as string) + NEWLINE_TOKENS;
    if (used + size > keep) break;
    used += size;
    first--;
  }
  const oldest = lines.slice(0, first).join("\n").trimEnd();
  const newest = lines.slice(first).join("\n");
  if (newest.trim() === "" || oldest === "")
    return { oldest: summary, newest: "", target: targetFor(cap, "") };
  return { oldest, newest, target: targetFor(cap, newest) };
}

function targetFor(cap: number, newest: string): number {
  return Math.max(1, Math.floor(cap * CONDENSE_TARGET_SHARE) - summaryTokens(newest) - 1);
}

/** The request that condenses the oldest part into at most `target` tokens. */
export function condenseRequest(split: CondenseSplit, wrap: (text: string) => string): History {
  const prompt = PROMPTS["compact-condense"].replaceAll("{{max_tokens}}", String(split.target));
  return [
    { role: "system", content: prompt },
    { role: "user", content: wrap(split.oldest) },
  ];
}

/** The condensed oldest part followed by the newest part as written. */
export function joinCondensed(condensed: string, split: CondenseSplit): string {
  return split.newest === "" ? condensed : `${condensed.trimEnd()}${JOIN}${split.newest}`;
}
