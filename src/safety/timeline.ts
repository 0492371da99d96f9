// What the session's log says about its workspace: the checkpoints taken and the rewinds made, read from
// events.jsonl. The workspace "before message k" is the first snapshot recorded at or after k was sent:
// a turn's checkpoint is taken before its first change and a rewind records the workspace before it
// changes anything, so no change by the agent lies between the message and that snapshot. When no
// snapshot follows, the agent has changed nothing since, and there is nothing to restore.
import { join } from "node:path";
import {
  type CheckpointEvent,
  CheckpointEvent as CheckpointSchema,
  RewindEvent,
} from "../contract/checkpoints.ts";
import { contentText, type History, type Message } from "../contract/history.ts";
import { EventsLog } from "../session/events-log.ts";
import { EVENTS_FILE } from "../session/store.ts";

export interface Timeline {
  checkpoints: CheckpointEvent[];
  rewinds: RewindEvent[];
  /** every snapshot in the order recorded, with the time it shows the workspace at */
  states: { ts: string; snapshot: string }[];
}

const LINE_HEAD = /^\{"ts":"[^"]*","type":"(checkpoint|rewind)"/;

export function readTimeline(sessionDir: string): Timeline {
  const lines = new EventsLog(join(sessionDir, EVENTS_FILE)).lines();
  const checkpoints: CheckpointEvent[] = [];
  const rewinds: RewindEvent[] = [];
  const states: Timeline["states"] = [];
  for (const line of lines) {
    const head = LINE_HEAD.exec(line);
    if (!head) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (head[1] === "checkpoint") {
      const r = CheckpointSchema.safeParse(value);
      if (!r.success) continue;
      checkpoints.push(r.data);
      states.push({ ts: r.data.at ?? r.data.ts, snapshot: r.data.snapshot });
    } else {
      const r = RewindEvent.safeParse(value);
      if (!r.success) continue;
      rewinds.push(r.data);
      if (r.data.code_before) states.push({ ts: r.data.ts, snapshot: r.data.code_before });
    }
  }
  return { checkpoints, rewinds, states };
}

/** The snapshot of the workspace as it was when the message of `ts` was sent; undefined: unchanged since. */
export function snapshotAt(t: Timeline, ts: string): string | undefined {
  return t.states.find((s) => s.ts >= ts)?.snapshot;
}

/** A user message that starts a turn: typed by the user (a request or a `!command`), not added by the core. */
export function isTurnStart(m: Message): boolean {
  if (m.role !== "user") return false;
  const meta = m.meta ?? {};
  return !(
    meta.steered ||
    meta.continuation ||
    meta.summary ||
    meta.interrupted ||
    meta.restored ||
    meta.approval_mode !== undefined // the note of an approval-mode change
  );
}

export interface TurnRow {
  /** index of the user message in the history */
  index: number;
  ts: string | undefined;
  /** first line of what the user typed */
  title: string;
  /** files the turn changed, when it changed any */
  files: number;
  /** what goes back in the input box when the turn is undone */
  draft: string;
}

/** The turns of `history`, oldest first, with the files each changed. */
export function turnRows(history: History, t: Timeline): TurnRow[] {
  const changed = new Map<string, number>();
  for (const c of t.checkpoints) {
    if (c.phase === "after") changed.set(c.turn_ts, (changed.get(c.turn_ts) ?? 0) + (c.changed?.length ?? 0));
  }
  const rows: TurnRow[] = [];
  history.forEach((m, index) => {
    if (!isTurnStart(m)) return;
    const ts = typeof m.meta?.ts === "string" ? m.meta.ts : undefined;
    const draft = userDraft(m);
    const title = draft.split("\n").find((l) => l.trim() !== "") ?? "";
    rows.push({ index, ts, title, files: ts ? (changed.get(ts) ?? 0) : 0, draft });
  });
  return rows;
}

/** What the user typed for message `m`: a `!command` as typed, a request as typed (before attachments). */
export function userDraft(m: Message): string {
  const cmd = m.meta?.shell_command;
  if (typeof cmd === "string") return `!${cmd}`;
  if (typeof m.meta?.typed === "string") return m.meta.typed;
  return contentText(m.content);
}

/** Timestamp of the last message of `h` (the "tail" a rewind's record is checked against). */
export function tailOf(h: History): string {
  const m = h.at(-1);
  return `${h.length}:${typeof m?.meta?.ts === "string" ? m.meta.ts : ""}`;
}

/**
 * The rewinds that /redo can still reverse, newest last: an undo or rewind is reversible while nothing
 * happened to the conversation after it (each record names the conversation's tail before and after).
 */
export function redoStack(t: Timeline, currentTail: string): RewindEvent[] {
  const stack: RewindEvent[] = [];
  for (const r of t.rewinds) {
    const top = stack.at(-1);
    if (top && top.tail_after !== r.tail_before) stack.length = 0;
    if (r.kind === "redo") {
      const i = stack.findIndex((s) => s.id === r.reverses);
      if (i >= 0) stack.splice(i, 1);
      // What remains is reversible only from the conversation this redo left.
      for (const s of stack) s.tail_after = r.tail_after;
    } else stack.push({ ...r });
  }
  const top = stack.at(-1);
  if (top && top.tail_after !== currentTail) return [];
  return stack;
}
