// Every message a session ever held, from its events.jsonl: what `i sessions --recover ID` prints. The
// log is append-only and every checkpoint and compaction goes through it first, so messages that a
// compaction summarised away, or that history.json never got to hold before a crash, are all still there.
import { join } from "node:path";
import type { Message } from "../contract/history.ts";
import { BaseEvent, MessageEvent } from "../contract/session.ts";
import { parseCompaction } from "./compaction-pieces.ts";
import { EventsLog, replayEvents } from "./events-log.ts";
import { EVENTS_FILE } from "./store.ts";

/**
 * The messages in the order they were first recorded: each message event once (a re-log of the same
 * message at the same place is not new), and from a compaction or base event the messages that were not
 * already in the history (a summary, a pruned message, an edit). Messages a retry replaced stay in, so this is a record,
 * not necessarily a valid history.
 */
export function allMessages(sessionDir: string): Message[] {
  const { events } = new EventsLog(join(sessionDir, EVENTS_FILE)).read();
  const out: Message[] = [];
  let next = 0;
  // The replay calls back with the history as it is before each event: compare the event against it.
  replayEvents(events, (state) => {
    const e = events[next++];
    if (!e) return;
    const m = e.type === "message" ? MessageEvent.safeParse(e) : undefined;
    if (m?.success) {
      const at = state[m.data.index];
      if (at === undefined || JSON.stringify(at) !== JSON.stringify(m.data.message)) out.push(m.data.message);
      return;
    }
    const c = e.type === "compaction" ? parseCompaction(e) : undefined;
    const b = e.type === "base" ? BaseEvent.safeParse(e) : undefined;
    // Written by reference, a compaction's ranges are messages the log held already: only its
    // messages in full can be new.
    const candidates = c
      ? "pieces" in c
        ? c.pieces.flatMap((p) => ("message" in p ? [p.message] : []))
        : c.history
      : b?.success
        ? b.data.history
        : undefined;
    if (candidates) {
      const known = new Set(state.map((x) => JSON.stringify(x)));
      for (const x of candidates) if (!known.has(JSON.stringify(x))) out.push(x);
    }
  });
  return out;
}
