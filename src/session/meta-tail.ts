// meta.json is a cache of the log that is refreshed only now and then (a rename per checkpoint would sit
// on every turn's fsync). It records how long events.jsonl was when it was written; whatever the log
// holds after that point — the last turns of a session still running, or of one killed — is read from
// there, so a listing shows the session's real message count, compactions and last update without
// anything being written per checkpoint.
import {
  BaseEvent,
  type EventLine,
  MessageEvent,
  type SessionMeta,
  TruncateEvent,
} from "../contract/session.ts";
import { parseCompaction } from "./compaction-pieces.ts";
import { EventsLog, parseEventLines } from "./events-log.ts";

/**
 * `meta` brought up to the end of the log at `logPath`: `messages` (the history's length after the last
 * event that changed it), `compactions` and `updated` (that event's time). `meta` itself when it
 * records no log size (written by an older version, at every checkpoint) or the log is not the one it
 * was measured on (shorter, or the point is not a line start).
 */
export function withLogTail(meta: SessionMeta, logPath: string): SessionMeta {
  if (meta.log_size === undefined) return meta;
  const lines = new EventsLog(logPath).linesFrom(meta.log_size);
  if (!lines || (lines.length === 1 && lines[0] === "")) return meta;
  let { messages, compactions, updated } = meta;
  // A line torn by a crash, or one that does not parse, changed nothing: replay skips it too.
  for (const e of parseEventLines(lines).events) {
    const length = historyLength(e);
    if (length === undefined) continue;
    messages = length;
    if (e.type === "compaction") compactions++;
    if (e.ts > updated) updated = e.ts;
  }
  return { ...meta, messages, compactions, updated };
}

/** How long the history is after event `e`; undefined for an event that does not change it. */
function historyLength(e: EventLine): number | undefined {
  switch (e.type) {
    case "message": {
      const m = MessageEvent.safeParse(e);
      return m.success ? m.data.index + 1 : undefined;
    }
    case "truncate": {
      const t = TruncateEvent.safeParse(e);
      return t.success ? t.data.length : undefined;
    }
    case "base": {
      const b = BaseEvent.safeParse(e);
      return b.success ? b.data.history.length : undefined;
    }
    case "compaction": {
      const c = parseCompaction(e);
      if (!c) return undefined;
      if ("history" in c) return c.history.length;
      let n = 0;
      for (const p of c.pieces) n += "message" in p ? 1 : p.to - p.from;
      return n;
    }
    default:
      return undefined;
  }
}
