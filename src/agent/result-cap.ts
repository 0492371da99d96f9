// One tool result can never crowd out the context window. Whatever a tool's own caps allow (read's
// 256 KiB, a module's 50 000 characters), its text is also held to a share of the model's window
// (after the room kept for the reply), measured with the compaction estimator. Otherwise a single
// 70 KB read on a 12k-token model makes every later request too large, and compaction cannot help: the
// oversized result sits in the current turn, which it must keep. A session that already holds such a
// result (from a run with a bigger model, or before this cap) is shortened the same way when it is
// loaded; the full output stays in the session's events.jsonl (`i sessions --recover ID`).

import type { Content, History, Message, Part } from "../contract/history.ts";
import { textTokens } from "../lib/estimator.ts";
import { capText } from "../lib/truncate.ts";

/** The share of (window − reply room) one tool result may take. */
export const RESULT_WINDOW_SHARE = 0.25;
const MIN_RESULT_TOKENS = 500;

export function resultTokenCap(model: { context_window: number; max_output_tokens?: number }): number {
  const room = model.context_window - (model.max_output_tokens ?? 0);
  return Math.max(MIN_RESULT_TOKENS, Math.floor(room * RESULT_WINDOW_SHARE));
}

function shortenText(text: string, capTokens: number): string {
  const tokens = textTokens(text);
  if (tokens <= capTokens) return text;
  // Proportional, with room for the notes; the estimator counts per character, so this lands under.
  const keep = Math.max(200, Math.floor((text.length * capTokens) / tokens) - 400);
  return `${capText(text, keep)}\n[output shortened to fit the model's context window (${Math.round(tokens)} estimated tokens, at most ${capTokens} per tool result): read smaller ranges (offset/limit), grep for what you need, or redirect the output to a file]`;
}

/** `content` with its text held to `capTokens` in total (shared among text parts); images untouched. */
export function capResultContent(content: Content, capTokens: number): Content {
  if (typeof content === "string") return shortenText(content, capTokens);
  const texts = content.filter((p) => p.type === "text").length;
  const per = Math.floor(capTokens / Math.max(1, texts));
  let changed = false;
  const out = content.map((p): Part => {
    if (p.type !== "text") return p;
    const text = shortenText(p.text, per);
    if (text !== p.text) changed = true;
    return text === p.text ? p : { type: "text", text };
  });
  return changed ? out : content;
}

/** `history` with every oversized tool result shortened, and how many were. The same array when none. */
export function shortenOversizedResults(
  history: History,
  capTokens: number,
): { history: History; shortened: number } {
  let shortened = 0;
  const out = history.map((m): Message => {
    if (m.role !== "tool") return m;
    const content = capResultContent(m.content, capTokens);
    if (content === m.content) return m;
    shortened++;
    return { ...m, content };
  });
  return { history: shortened > 0 ? out : history, shortened };
}
