// One tool result can never crowd out the context window: its text is held to a share of the model's
// window (after the room kept for the reply); the tool dispatch applies that cap to every new result. A
// session that already holds such a result (from a run with a bigger model, or before this cap) is
// shortened the same way when it is loaded; the full output stays in the session's events.jsonl
// (`i sessions --recover ID`).

import type { History, Message } from "../contract/history.ts";
import { capResultContent } from "../tools/output-cap.ts";

/** The share of (window − reply room) one tool result may take. */
export const RESULT_WINDOW_SHARE = 0.25;
const MIN_RESULT_TOKENS = 500;

export function resultTokenCap(model: { context_window: number; max_output_tokens?: number }): number {
  const room = model.context_window - (model.max_output_tokens ?? 0);
  return Math.max(MIN_RESULT_TOKENS, Math.floor(room * RESULT_WINDOW_SHARE));
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
