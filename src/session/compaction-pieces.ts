// A compacted history written by reference to the one it replaced: ranges of messages the log already
// holds, and in full only the messages that are new (a summary, a pruned or shortened message). Messages
// are matched by their JSON text, as the log would write them, so a history that came back from a worker
// (fresh objects) still matches.
import type { History, Message } from "../contract/history.ts";
import {
  CompactionDeltaEvent,
  CompactionEvent,
  type CompactionPiece,
  type EventLine,
} from "../contract/session.ts";
import { messageJson } from "../lib/message-json.ts";

/** A compaction event line as written: by reference (`pieces` against `before` messages) or whole. */
export type ParsedCompaction =
  | { pieces: CompactionPiece[]; messagesBefore: number }
  | { history: History; messagesBefore: number };

/** Event line `e` as a compaction, or undefined when it is not a well-formed one of either form. */
export function parseCompaction(e: EventLine): ParsedCompaction | undefined {
  // By reference first: a line with `pieces` is never a whole state (that is how the log is scanned).
  const d = CompactionDeltaEvent.safeParse(e);
  if (d.success) return { pieces: d.data.pieces, messagesBefore: d.data.messages_before };
  if ("pieces" in e) return undefined;
  const c = CompactionEvent.safeParse(e);
  return c.success ? { history: c.data.history, messagesBefore: c.data.messages_before } : undefined;
}

/** The pieces that rebuild `after` from `before`: runs of `before` as `[from, to)`, the rest in full. */
export function compactionPieces(before: History, after: History): CompactionPiece[] {
  // Index by text only when a message is not where the previous run continues (the common case).
  let at: Map<string, number> | undefined;
  const indexOf = (text: string): number | undefined => {
    if (!at) {
      at = new Map();
      for (let i = before.length - 1; i >= 0; i--) at.set(messageJson(before[i] as Message), i);
    }
    return at.get(text);
  };
  const pieces: CompactionPiece[] = [];
  let run: { from: number; to: number } | undefined;
  // Where in `before` the next message most likely is: after the last match, or after the message a
  // new one replaced (a pruned message stands where the original stood).
  let cursor = 0;
  for (const m of after) {
    const i =
      cursor < before.length && sameMessage(before[cursor] as Message, m) ? cursor : indexOf(messageJson(m));
    if (i === undefined) {
      run = undefined;
      pieces.push({ message: m });
      cursor++;
    } else if (run && run.to === i) {
      run.to++;
      cursor = i + 1;
    } else {
      run = { from: i, to: i + 1 };
      pieces.push(run);
      cursor = i + 1;
    }
  }
  return pieces;
}

function sameMessage(a: Message, b: Message): boolean {
  return a === b || messageJson(a) === messageJson(b);
}

/** The history `pieces` describe on top of `before`; undefined when a range does not fit it. */
export function resolvePieces(pieces: readonly CompactionPiece[], before: History): Message[] | undefined {
  const out: Message[] = [];
  for (const p of pieces) {
    if ("message" in p) {
      out.push(p.message);
      continue;
    }
    if (p.from >= p.to || p.to > before.length) return undefined;
    for (let i = p.from; i < p.to; i++) out.push(before[i] as Message);
  }
  return out;
}
