// A wire whose request is sent as text kept per message (not JSON.stringify of the whole body each time)
// must send exactly that JSON: the check every wire's test makes, and the histories it makes it on.
import { expect } from "bun:test";
import type { Message } from "../../src/contract/history.ts";
import type { ModelRequest } from "../../src/provider/types.ts";

export const PNG = { type: "image" as const, media_type: "image/png", data: "iVBORw0KGgo=" };

/** The check for one wire: its request text is the JSON of its request body, byte for byte. */
export function sameAsBody(
  text: (req: ModelRequest) => string,
  body: (req: ModelRequest) => unknown,
): (req: ModelRequest) => void {
  return (req) => expect(text(req)).toBe(JSON.stringify(body(req)));
}

/**
 * A history's opening, new objects each call (a per-message cache must not see them as known): text that
 * JSON escapes (quotes, a backslash, U+2028), text outside ASCII, then an image.
 */
export function openingTurns(): Message[] {
  return [
    { role: "system", content: 'you are a test \u2028 with "quotes" and \\ backslashes' },
    { role: "user", content: "first question, ünïcödé 世界 🎉" },
    { role: "user", content: [{ type: "text", text: "and this one" }, PNG] },
  ];
}

/** Each prefix of `messages` in turn, as a session sends them: one array, growing by a message each step. */
export function* growingHistory(messages: readonly Message[]): Generator<Message[]> {
  const live: Message[] = [];
  for (const m of messages) {
    live.push(m);
    yield live;
  }
}
