// Gemini's thought signatures as the history keeps them. With thinking on, the model signs the part that
// follows its thinking (the first function call of a turn, or its text) and wants that signature back on
// the same part, unchanged, or a tool turn's follow-up is refused. They live in the message's private wire
// state (`adapter.gemini`), saved with the session and never shown to a summariser.
import { z } from "zod";
import type { Message } from "../../contract/history.ts";

const GeminiState = z.object({
  /** tool-call id → the signature on that call's functionCall part */
  calls: z.record(z.string(), z.string()).optional(),
  /** the signature on the turn's text (or on an empty closing part) */
  text: z.string().optional(),
});
export type GeminiState = z.infer<typeof GeminiState>;

export function geminiStateOf(msg: Message): GeminiState {
  const parsed = GeminiState.safeParse(msg.adapter?.gemini);
  return parsed.success ? parsed.data : {};
}

/** `msg` with `state` kept in its wire state (other wires' state untouched); unchanged when empty. */
export function withGeminiState(msg: Message, state: GeminiState): Message {
  if (state.text === undefined && (state.calls === undefined || Object.keys(state.calls).length === 0))
    return msg;
  return { ...msg, adapter: { ...msg.adapter, gemini: state } };
}
