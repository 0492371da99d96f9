// Where a history may be cut or resumed: a turn starts at a user or assistant message that is not inside
// a tool batch (an assistant message with tool calls followed by the tool messages answering them).
import type { History, Message, ToolCall } from "../contract/history.ts";

/** The tool calls of the assistant message whose batch index `i` falls in, and where that batch began. */
function openBatchBefore(h: History, i: number): { owner: number; answered: number } | undefined {
  let j = i - 1;
  while (j >= 0 && h[j]?.role === "tool") j--;
  const owner = h[j];
  if (owner?.role !== "assistant" || !owner.tool_calls?.length) return undefined;
  return { owner: j, answered: i - j - 1 };
}

/**
 * True when `i` starts a turn: history[i] is a user or assistant message and every tool call made before
 * it has been answered (so cutting the history at `i` splits no tool batch). history[0] (system) never is.
 */
export function isSafeCut(h: History, i: number): boolean {
  if (!Number.isInteger(i) || i < 1 || i >= h.length) return false;
  const m = h[i] as Message;
  if (m.role !== "user" && m.role !== "assistant") return false;
  const batch = openBatchBefore(h, i);
  if (!batch) return true;
  const calls = (h[batch.owner] as Message).tool_calls ?? [];
  return batch.answered >= calls.length;
}

/** Every index at which a turn starts (see isSafeCut), ascending. Linear in the history length. */
export function turnStarts(h: History): number[] {
  const out: number[] = [];
  let unanswered = 0;
  for (let i = 1; i < h.length; i++) {
    const m = h[i] as Message;
    if (m.role === "tool") {
      if (unanswered > 0) unanswered--;
      continue;
    }
    if ((m.role === "user" || m.role === "assistant") && unanswered === 0) out.push(i);
    unanswered = m.role === "assistant" ? (m.tool_calls?.length ?? 0) : 0;
  }
  return out;
}

/**
 * Where a compactor keeping at least `keepRecent` recent messages would cut: the latest turn start at or
 * before history.length - keepRecent, if it is 2 or more (history[0] is the system message, and something
 * must be left to summarise).
 */
export function latestCut(h: History, keepRecent: number): number | undefined {
  const limit = h.length - keepRecent;
  const starts = turnStarts(h);
  for (let k = starts.length - 1; k >= 0; k--) {
    const i = starts[k] as number;
    if (i <= limit) return i >= 2 ? i : undefined;
  }
  return undefined;
}

/** The calls of the final assistant message that no tool message answers yet (a batch in progress). */
export function pendingToolCalls(h: History): ToolCall[] {
  const batch = openBatchBefore(h, h.length);
  if (!batch) return [];
  const answered = new Set<string>();
  for (let j = batch.owner + 1; j < h.length; j++) {
    const id = h[j]?.tool_call_id;
    if (id !== undefined) answered.add(id);
  }
  return ((h[batch.owner] as Message).tool_calls ?? []).filter((c) => !answered.has(c.id));
}

/**
 * Close a batch left open (e.g. by a crash while tools ran): answer each pending call with an error
 * tool message so the history is valid again and the model learns the call did not complete.
 */
export function answerPendingToolCalls(h: History, note: string): History {
  const pending = pendingToolCalls(h);
  if (pending.length === 0) return h;
  return [
    ...h,
    ...pending.map(
      (c): Message => ({ role: "tool", tool_call_id: c.id, content: note, meta: { is_error: true } }),
    ),
  ];
}
