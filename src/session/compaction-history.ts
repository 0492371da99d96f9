// What every compaction of a session did, read back from its events.jsonl: the history just before it,
// the history it committed, and what it dropped, summarised and restored. The log holds every message a
// compaction replaced, so nothing here is an approximation: `/compactions` and `i sessions --compactions`
// show it, and `/uncompact` rebuilds the history before one of them from it.
import { join } from "node:path";
import type { CompactionRecord } from "../contract/compaction.ts";
import type { History, Message } from "../contract/history.ts";
import { BaseEvent } from "../contract/session.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import { messageJson } from "../lib/message-json.ts";
import { parseCompaction } from "./compaction-pieces.ts";
import { EventsLog, replayEvents } from "./events-log.ts";
import { EVENTS_FILE } from "./store.ts";

/** One committed compaction: the histories on either side of it and the record it was logged with. */
export interface LoggedCompaction {
  /** 1-based, in the order they were committed */
  number: number;
  ts: string;
  record: Partial<CompactionRecord>;
  before: readonly Message[];
  after: readonly Message[];
}

/** An uncompaction (or its undoing), as logged: a base event that says what it restored. */
export interface LoggedRestore {
  ts: string;
  action: "uncompact" | "recompact";
  compaction: number;
  before: readonly Message[];
  after: readonly Message[];
}

/** A point where the log replaced the history rather than appending to it. */
type Mark = ({ kind: "compaction" } & LoggedCompaction) | ({ kind: "restore" } & LoggedRestore);

export interface CompactionLog {
  compactions: LoggedCompaction[];
  /** compactions and restores, in the order they were logged */
  marks: Mark[];
  /** the history the log replays to: the session's current checkpoint */
  current: readonly Message[];
}

/** Reads the whole log of the session in `sessionDir` (every compaction since it was created). */
export function readCompactionLog(sessionDir: string): CompactionLog {
  const { events } = new EventsLog(join(sessionDir, EVENTS_FILE)).read();
  const out: CompactionLog = { compactions: [], marks: [], current: [] };
  let next = 0;
  let pending: { before: readonly Message[]; at: number } | undefined;
  // replayEvents calls back with the history before each event (and once more at the end): the state
  // after event k is the state before event k+1. The array is the replay's own, changed in place.
  const result = replayEvents(events, (state) => {
    if (pending) settle(out, events[pending.at] as Record<string, unknown>, pending.before, [...state]);
    pending = undefined;
    const at = next++;
    const e = events[at];
    if (e?.type === "compaction" || (e?.type === "base" && "restore" in e))
      pending = { before: [...state], at };
  });
  out.current = result.history;
  return out;
}

function settle(
  out: CompactionLog,
  e: Record<string, unknown>,
  before: readonly Message[],
  after: readonly Message[],
): void {
  const ts = typeof e.ts === "string" ? e.ts : "";
  if (e.type === "compaction") {
    if (!parseCompaction(e as Parameters<typeof parseCompaction>[0])) return;
    const record = (e.record ?? {}) as Partial<CompactionRecord>;
    const c: LoggedCompaction = { number: out.compactions.length + 1, ts, record, before, after };
    out.compactions.push(c);
    out.marks.push({ kind: "compaction", ...c });
    return;
  }
  const tag = BaseEvent.safeParse(e).data?.restore;
  if (!tag) return;
  out.marks.push({ kind: "restore", ts, action: tag.kind, compaction: tag.compaction, before, after });
}

/** What compaction `c` did to the messages, told apart by their exact JSON text. */
export interface CompactionParts {
  /** messages of `before` (system message aside) that are not in `after`: summarised or dropped */
  dropped: Message[];
  /** messages of `after` that were not in `before`: the summary, pruned versions, restored snapshots */
  added: Message[];
  /** messages of `after` that stand in `before` unchanged: the protected suffix */
  kept: number;
  /** the summary message (the route's summary; absent on the prune route) */
  summary?: Message;
}

export function compactionParts(c: LoggedCompaction): CompactionParts {
  const afterTexts = new Set(c.after.map((m) => messageJson(m)));
  const beforeTexts = new Set(c.before.map((m) => messageJson(m)));
  const dropped = c.before.slice(1).filter((m) => !afterTexts.has(messageJson(m)));
  const added = c.after.filter((m) => !beforeTexts.has(messageJson(m)));
  const kept = c.after.length - added.length;
  const summary = c.record.route === "prune" ? undefined : c.after[1];
  return { dropped, added, kept, ...(summary && !beforeTexts.has(messageJson(summary)) ? { summary } : {}) };
}

/** A history rebuilt from the log, or why it cannot be. */
export type Rebuilt = { history: History; compaction: number } | { why: string };

const STALE =
  "the conversation in memory is not the one the session's log holds (an unsaved change or an edited history.json); send a message first, then try again";

/**
 * The history before compaction `n` with everything the session added since, in order: between one
 * mark (compaction or restore) and the next the session only appends, so the messages each span added
 * are the next mark's `before` past the previous mark's `after`. A restore is transparent to this: what
 * it put back is a history some compaction replaced, and what it added comes after it. Refused (with
 * why) when a span is not an append (a history edited by hand in between) or when `current` is not the
 * history the log replays to.
 */
export function rebuildBeforeCompaction(log: CompactionLog, n: number, current: History): Rebuilt {
  if (!sameHistory(log.current, current)) return { why: STALE };
  const start = log.marks.findIndex((m) => m.kind === "compaction" && m.number === n);
  const target = log.marks[start];
  if (!target) return { why: `there is no compaction ${n} (the session has ${log.compactions.length})` };
  const history: Message[] = [...target.before];
  for (let k = start; k < log.marks.length; k++) {
    const from = log.marks[k] as Mark;
    const to = log.marks[k + 1]?.before ?? log.current;
    const added = appendedAfter(from.after, to);
    if (!added)
      return {
        why: `the history after ${describe(from)} was changed other than by adding messages (edited by hand?), so compaction ${n} cannot be undone without guessing where messages belong`,
      };
    history.push(...added);
  }
  if (sameHistory(history, current))
    return {
      why: `the history already holds every message from before compaction ${n} (/uncompact undo puts the compaction back)`,
    };
  return { history, compaction: n };
}

/** The history an uncompaction replaced, with what was added since; only when it was the last mark. */
export function rebuildBeforeUncompaction(log: CompactionLog, current: History): Rebuilt {
  if (!sameHistory(log.current, current)) return { why: STALE };
  const last = log.marks.at(-1);
  if (last?.kind !== "restore")
    return {
      why: "there is no uncompaction to undo: the last compaction action of this session was not one",
    };
  if (last.action !== "uncompact")
    return { why: "there is no uncompaction to undo: the last one was already undone" };
  const added = appendedAfter(last.after, log.current);
  if (!added) return { why: "the history was changed after the uncompaction other than by adding messages" };
  return { history: [...last.before, ...added], compaction: last.compaction };
}

function describe(m: Mark): string {
  return m.kind === "compaction" ? `compaction ${m.number}` : `the ${m.action} of compaction ${m.compaction}`;
}

function sameHistory(a: readonly Message[], b: readonly Message[]): boolean {
  return a.length === b.length && startsWith(b, a);
}

/**
 * Whether `h` starts with every message of `prefix`, compared by value: a message read back from the log
 * has its keys in the schema's order, one held in memory in the order it was built.
 */
function startsWith(h: readonly Message[], prefix: readonly Message[]): boolean {
  if (h.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (h[i] !== prefix[i] && !jsonEqual(h[i], prefix[i])) return false;
  return true;
}

/** The messages `later` adds to `base` when it starts with all of `base`; undefined when it does not. */
export function appendedAfter(base: readonly Message[], later: readonly Message[]): Message[] | undefined {
  if (!startsWith(later, base)) return undefined;
  return later.slice(base.length);
}
