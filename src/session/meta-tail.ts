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
  UsageEvent,
} from "../contract/session.ts";
import { parseCompaction } from "./compaction-pieces.ts";
import { EventsLog, parseEventLines } from "./events-log.ts";

type Usage = NonNullable<SessionMeta["usage"]>;

/** `usage` with one request's tokens (and cost) added; a request without a price keeps the cost as it was. */
export function addedUsage(
  usage: Usage | undefined,
  add: { input_tokens: number; output_tokens: number; cost_usd?: number },
): Usage {
  const u = usage ?? { input_tokens: 0, output_tokens: 0 };
  const cost = add.cost_usd === undefined ? u.cost_usd : (u.cost_usd ?? 0) + add.cost_usd;
  return {
    input_tokens: u.input_tokens + add.input_tokens,
    output_tokens: u.output_tokens + add.output_tokens,
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
}

/** The sum of the `usage` lines among `events` added to `usage` (unchanged when there are none). */
export function usageOf(events: readonly EventLine[], usage: Usage | undefined): Usage | undefined {
  let out = usage;
  for (const e of events) {
    if (e.type !== "usage") continue;
    const u = UsageEvent.safeParse(e);
    if (u.success) out = addedUsage(out, u.data);
  }
  return out;
}

/**
 * `meta` brought up to the end of the log at `logPath`: `messages` (the history's length after the last
 * event that changed it), `compactions`, `updated` (that event's time) and `usage` (the requests logged
 * after it). `meta` itself when it
 * records no log size (written by an older version, at every checkpoint) or the log is not the one it
 * was measured on (shorter, or the point is not a line start).
 */
export function withLogTail(meta: SessionMeta, logPath: string): SessionMeta {
  if (meta.log_size === undefined) return meta;
  const lines = new EventsLog(logPath).linesFrom(meta.log_size);
  if (!lines || (lines.length === 1 && lines[0] === "")) return meta;
  let { messages, compactions, updated } = meta;
  const { events } = parseEventLines(lines);
  const usage = usageOf(events, meta.usage);
  // A line torn by a crash, or one that does not parse, changed nothing: replay skips it too.
  for (const e of events) {
    const length = historyLength(e);
    if (length === undefined) continue;
    messages = length;
    if (e.type === "compaction") compactions++;
    if (e.ts > updated) updated = e.ts;
  }
  return { ...meta, messages, compactions, updated, ...(usage ? { usage } : {}) };
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
