// What the history says when a turn ends early. The model must see that its last request was interrupted
// (else it takes the next user message as the answer to a question it never finished), and what the user
// saw of a partial reply stays in the history rather than vanishing.
import type { Message } from "../contract/history.ts";

export const INTERRUPTED_MARKER =
  "[interrupted by the user: the previous request was cancelled before it finished; whatever it was doing stopped there]";

const now = () => new Date().toISOString();

/** The partial reply the user saw, if any, marked as incomplete. */
export function partialReply(text: string, why: string): Message[] {
  if (text.trim() === "") return [];
  return [
    {
      role: "assistant",
      content: `${text}\n\n[${why}]`,
      meta: { ts: now(), partial: true },
    },
  ];
}

/**
 * The messages that close a cancelled turn: the partial reply (when there is one) and the marker, a user
 * message, so the history never holds two user messages in a row without it.
 */
export function interruptedTail(partialText: string): Message[] {
  return [
    ...partialReply(partialText, "reply cut off here: the user interrupted it"),
    { role: "user", content: INTERRUPTED_MARKER, meta: { ts: now(), interrupted: true } },
  ];
}
