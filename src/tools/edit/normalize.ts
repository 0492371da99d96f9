// How loosely a line of old_text may equal a line of the file, tier by tier. Each tier only forgives
// what models get wrong when they retype text they read (whitespace, typographic punctuation); the
// content itself must still be all there, in order, on every line.

/**
 * Typographic characters models retype as ASCII. One UTF-16 unit for one, so a text mapped through it
 * keeps every offset: a match found in the mapped text is the same range of the original.
 */
const PUNCTUATION: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u2032": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u2033": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u00a0": " ",
  "\u2007": " ",
  "\u2009": " ",
  "\u200a": " ",
  "\u202f": " ",
  "\u3000": " ",
};
const PUNCTUATION_RE = new RegExp(`[${Object.keys(PUNCTUATION).join("")}]`, "g");

/** `s` with typographic quotes, dashes and spaces as ASCII; the same length, offset for offset. */
export function asciiPunctuation(s: string): string {
  return s.replace(PUNCTUATION_RE, (c) => PUNCTUATION[c] ?? c);
}

export type LineTier = "trailing-whitespace" | "indentation" | "punctuation";

/** The line tiers, strictest first; the first one with a match decides. */
export const LINE_TIERS: readonly LineTier[] = ["trailing-whitespace", "indentation", "punctuation"];

/** What a line is reduced to before comparing it in `tier`. */
export function lineKey(tier: LineTier, line: string): string {
  if (tier === "trailing-whitespace") return line.trimEnd();
  if (tier === "indentation") return line.trim();
  return asciiPunctuation(line).trim().replace(/\s+/g, " ");
}

/** What the result tells the model about a match that was not exact. */
export const TIER_NOTE: Record<LineTier | "inline-punctuation", string> = {
  "trailing-whitespace": "matched ignoring trailing whitespace",
  indentation: "matched ignoring indentation; new_text was re-indented to the file's",
  punctuation: "matched ignoring whitespace and typographic punctuation (quotes, dashes, spaces)",
  "inline-punctuation": "matched ignoring typographic punctuation (quotes, dashes, spaces)",
};
