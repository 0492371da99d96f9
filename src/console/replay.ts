// What a resumed session shows first: its last turns, as the live output showed them (user lines, the
// model's text, tool calls and results), bounded, with how many earlier messages are not shown.
import type { AgentEvent } from "../contract/events.ts";
import { contentText, contentWithImageMarkers, type History, type Message } from "../contract/history.ts";

export const REPLAY_MAX_MESSAGES = 24;
export const REPLAY_MAX_TEXT_CHARS = 2000;

export type ReplayItem =
  | { kind: "user"; text: string }
  /** a compaction summary standing for everything before it */
  | { kind: "summary"; text: string }
  | { kind: "event"; event: AgentEvent }
  /** a reply finished: the console closes its text block */
  | { kind: "reply_end" };

export interface Replay {
  items: ReplayItem[];
  /** messages before the replayed ones (the system prompt not counted) */
  earlier: number;
}

function clip(s: string, max = REPLAY_MAX_TEXT_CHARS): string {
  return s.length > max ? `${s.slice(0, max)}… [${s.length - max} more characters]` : s;
}

/** Where to start: a user message, so no tool result is shown without the call it answers. */
function startIndex(h: Readonly<History>, max: number): number {
  let start = Math.max(1, h.length - max);
  while (start < h.length && (h[start] as Message).role !== "user") start++;
  return start >= h.length ? Math.max(1, h.length - max) : start;
}

export function replay(h: Readonly<History>, max = REPLAY_MAX_MESSAGES): Replay {
  const start = startIndex(h, max);
  const items: ReplayItem[] = [];
  const names = new Map<string, string>();
  for (const m of h.slice(start)) {
    if (m.role === "user") {
      const text = contentWithImageMarkers(m.content);
      items.push(
        m.meta?.summary ? { kind: "summary", text: clip(text, 600) } : { kind: "user", text: clip(text) },
      );
    } else if (m.role === "assistant") {
      const text = contentText(m.content);
      if (text.trim() !== "") {
        items.push({ kind: "event", event: { type: "text_delta", text: clip(text) } });
        items.push({ kind: "reply_end" });
      }
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.name);
        items.push({
          kind: "event",
          event: { type: "tool_call", id: c.id, name: c.name, arguments: c.arguments },
        });
      }
    } else if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      items.push({
        kind: "event",
        event: {
          type: "tool_result",
          id,
          name: names.get(id) ?? "tool",
          is_error: m.meta?.is_error === true,
          content: clip(contentWithImageMarkers(m.content)),
          duration_ms: 0,
        },
      });
    }
  }
  return { items, earlier: Math.max(0, start - 1) };
}
