// Opening a session: events.jsonl is the record, history.json a cache of where it ends.
//
// Why one fsync per checkpoint is enough: a checkpoint first appends its new messages (or a compaction
// with its whole new history) to events.jsonl in one write and fsyncs it; that is the moment the
// checkpoint exists. history.json, .precompact.json and meta.json are then replaced by rename without
// fsync: every reader still sees a whole file, old or new, and whatever state they are left in by a crash
// (old, missing, empty after a power loss) is repaired here from the log. So a kill -9 or a power cut at
// any point loses nothing the log acknowledged, and a checkpoint costs one fsync instead of five.
//
// history.json is not rewritten at every checkpoint (that would cost the whole history per turn): meta.json
// records which file the session last wrote (inode, size, mtime) and how long the log was then. While
// history.json is still that file, it is the log's state at that length, and only the log after it is
// replayed on top (replayAfter). When it is not that file (someone wrote it, or a crash fell between the
// rename and meta.json's), the rules below decide.
//
// Telling a stale cache from a hand edit (history.json is meant to be editable): the file is stale when
// it is exactly a state the log passed through, and was written no later than the log's last append (a
// checkpoint writes history.json after appending to the log, so a crash in between leaves it older). Then
// the log's end wins. Anything else that differs from the log's end is the user's edit (or the log is
// damaged), and history.json wins, as before: the session logs it as a `base` event on its next write.

import type { History, Message } from "../contract/history.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import { parseEventLines, replayEvents, WHOLE_STATE_HEAD } from "./events-log.ts";

/** Events that change the history (the others, such as `model` or `recovered`, only annotate it). */
const STATE_EVENTS = new Set(["message", "truncate", "base", "compaction"]);
const FULL_STATE_LINE = new RegExp(`^${WHOLE_STATE_HEAD}`);
const COMPACTION_LINE = /^\{"ts":"[^"]*","type":"compaction"/;

export interface Reconciled {
  /** the history the session continues from */
  history: History;
  /** checkpoint: history.json was current; log: rebuilt or brought up to date from the log; edited: history.json wins */
  source: "checkpoint" | "log" | "edited";
  /** compaction events in `lines` */
  compactions: number;
}

export interface FileTimes {
  /** history.json's mtime (ms), undefined when it is absent */
  history?: number;
  /** events.jsonl's mtime (ms) */
  log?: number;
}

/** Compared by value and from the end, where two states of one session differ first. */
function sameHistory(a: readonly Message[], b: readonly Message[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = a.length - 1; i >= 0; i--) if (!jsonEqual(a[i], b[i])) return false;
  return true;
}

/**
 * Decide what a session opened with `lines` (events.jsonl) and `onDisk` (history.json, undefined when
 * missing or empty) continues from. Only the log from its second-to-last whole-history event on is
 * replayed: a crash leaves history.json at most one append behind the log, and that append holds at most
 * one such event, so the state history.json could be stale at lies within it.
 */
export function reconcile(
  lines: readonly string[],
  onDisk: History | undefined,
  times: FileTimes,
): Reconciled {
  const full: number[] = [];
  let compactions = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!FULL_STATE_LINE.test(line)) continue;
    full.push(i);
    if (COMPACTION_LINE.test(line)) compactions++;
  }
  const from = full.length >= 2 ? (full[full.length - 2] as number) : 0;
  const window = from === 0 ? lines : lines.slice(from);
  const { events, skipped } = parseEventLines(window);
  // A crash mid-append leaves one torn last line (no "\n" after it): not damage, that append never
  // completed.
  const torn = window.length > 0 && window[window.length - 1] !== "" ? 1 : 0;
  const target = onDisk;
  let passedThrough = false;
  const replay = replayEvents(events, (state) => {
    if (target && !passedThrough && sameHistory(state, target)) passedThrough = true;
  });
  const logHistory = replay.history;
  if (!onDisk) return { history: logHistory, source: "log", compactions };
  if (target && sameHistory(logHistory, target))
    return { history: onDisk, source: "checkpoint", compactions };
  const damaged = replay.problems > 0 || skipped > torn;
  const older = times.history !== undefined && times.log !== undefined && times.history <= times.log;
  if (!damaged && passedThrough && older) return { history: logHistory, source: "log", compactions };
  return { history: onDisk, source: "edited", compactions };
}

export interface ReplayedTail {
  history: History;
  /** whether any event after the recorded point changed the history */
  changed: boolean;
  /** compaction events among them */
  compactions: number;
}

/**
 * `lines` (the log after the point history.json was recorded at) replayed on top of `onDisk`; undefined
 * when they do not fit it cleanly (a damaged line, an event that does not apply): then the whole-log
 * rules of reconcile decide.
 */
export function replayAfter(lines: readonly string[], onDisk: History): ReplayedTail | undefined {
  const { events, skipped } = parseEventLines(lines);
  const torn = lines.length > 0 && lines[lines.length - 1] !== "" ? 1 : 0;
  if (skipped > torn) return undefined;
  let changed = false;
  let compactions = 0;
  for (const e of events) {
    if (STATE_EVENTS.has(e.type)) changed = true;
    if (e.type === "compaction") compactions++;
  }
  if (!changed) return { history: onDisk, changed, compactions };
  const replay = replayEvents(events, undefined, onDisk);
  if (replay.problems > 0) return undefined;
  return { history: replay.history, changed, compactions };
}
