// The write side of events.jsonl for one open session: the history the log replays to, and the byte
// counts that decide when a whole state is logged again (WHOLE_STATE_EVERY) and when meta.json is due.
// Kept apart from the session so what is logged, and how it is counted, is read in one place.
import type { History, Message } from "../contract/history.ts";
import type { SessionMeta } from "../contract/session.ts";
import { messageJson } from "../lib/message-json.ts";
import { compactionPieces } from "./compaction-pieces.ts";
import { EventsLog } from "./events-log.ts";
import { firstDifference } from "./session-files.ts";

/**
 * A compaction is logged by reference (its new messages only) until the bytes logged since the last
 * whole-state event exceed this many times the new history's size; then it is logged whole. Opening a
 * session after a crash replays from the second-to-last whole-state event, so it reads at most about
 * twice this multiple of the history (plus two whole histories), and the whole histories add at most
 * 1/WHOLE_STATE_EVERY to the bytes logged, instead of one history per compaction.
 */
export const WHOLE_STATE_EVERY = 2;

export type LogLine = Record<string, unknown>;

export function now(): string {
  return new Date().toISOString();
}

export class SessionLog {
  readonly events: EventsLog;
  /** the history events.jsonl replays to; equals history.json once a checkpoint completes */
  logged: Message[];
  /** opened from history.json: the log may disagree with it until a `base` event is written */
  needsBase = false;
  /** bytes logged since meta.json was last written */
  sinceMeta = 0;
  /**
   * bytes logged after the last whole-state event (the file's start counts as one); undefined when not
   * known (an opened session), so its first compaction is logged whole
   */
  sinceWhole: number | undefined;

  constructor(path: string, history: Message[]) {
    this.events = new EventsLog(path);
    this.logged = history;
  }

  /** The log's first line, naming the session: the start counts as a whole state. */
  begin(meta: SessionMeta): void {
    const { id, workspace, provider, model, base_url } = meta;
    this.sinceWhole = this.events.append([
      {
        ts: meta.created,
        type: "session",
        id,
        workspace,
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
        ...(base_url ? { base_url } : {}),
      },
    ]);
  }

  /**
   * Log a compaction of `before` to `after`, fsynced, in one append with the messages of `before` not yet
   * logged (they would otherwise survive only in .precompact.json, which the next compaction overwrites).
   * The caller makes `after` the logged history once the caches are written (a failed write leaves it
   * at `before`, as the files are).
   */
  appendCompaction(before: History, after: History, record: object): void {
    const lines = this.messageLines(before);
    const ts = now();
    const common = { messages_before: before.length, record: { ...record } };
    const whole = this.wholeStateDue(after);
    // Written by reference against the history the log holds now (`before`); `pieces` first (see its schema).
    lines.push(
      whole
        ? { ts, type: "compaction", ...common, history: after }
        : { ts, type: "compaction", pieces: compactionPieces(this.logged, after), ...common },
    );
    const bytes = this.events.append(lines);
    if (whole) this.sinceWhole = 0;
    else this.counted(lines, bytes);
  }

  /** Append `lines` (fsynced unless `durable` is false) and count them; returns the bytes written. */
  append(lines: readonly LogLine[], durable = true): number {
    return this.counted(lines, this.events.append(lines, durable));
  }

  /** `append` with the fsync in the background: `synced` settles when the lines are durable. */
  appendSyncLater(lines: readonly LogLine[]): { bytes: number; synced: Promise<void> } {
    const { bytes, synced } = this.events.appendSyncLater(lines);
    return { bytes: this.counted(lines, bytes), synced };
  }

  /** Count `bytes` (the append of `lines`) as logged since the last whole-state event; returns `bytes`. */
  counted(lines: readonly LogLine[], bytes: number): number {
    this.sinceMeta += bytes;
    // A base event is a whole state: the bytes after it are fewer than the append's (counted in full).
    if (lines.some((l) => l.type === "base")) this.sinceWhole = bytes;
    else if (this.sinceWhole !== undefined) this.sinceWhole += bytes;
    return bytes;
  }

  /** Whether the compaction to `after` is logged whole (see WHOLE_STATE_EVERY). */
  wholeStateDue(after: History): boolean {
    if (this.sinceWhole === undefined || after.length === 0) return true;
    let size = 0;
    // The per-message JSON cache: history.json is written from the same texts right after.
    for (const m of after) size += messageJson(m).length + 1;
    return this.sinceWhole > WHOLE_STATE_EVERY * size;
  }

  /** The message events that turn the logged history into `next`; they then count as logged. */
  messageLines(next: History): LogLine[] {
    const d = firstDifference(this.logged, next);
    const ts = now();
    const lines: LogLine[] = [];
    // A copy: the logged history changes in place below, before the lines are written.
    if (this.needsBase) lines.push({ ts, type: "base", history: [...this.logged] });
    if (d === next.length && next.length < this.logged.length)
      lines.push({ ts, type: "truncate", length: next.length });
    for (let i = d; i < next.length; i++) lines.push({ ts, type: "message", index: i, message: next[i] });
    this.needsBase = false;
    // In place, from the first difference: a copy of the whole history per checkpoint is O(history).
    this.logged.length = d;
    for (let i = d; i < next.length; i++) this.logged.push(next[i] as Message);
    return lines;
  }
}
