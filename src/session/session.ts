// One saved session: I_DATA_DIR/<id>/ with history.json (the current checkpoint),
// .precompact.json (the history before the latest compaction), events.jsonl (append-only log of every
// message and compaction) and meta.json.
//
// Crash safety: events.jsonl is the write-ahead record. Every checkpoint appends its new messages (a
// compaction: its compaction event, with the new history whole or by reference to the messages the log
// holds) in one write and fsyncs it, once; history.json,
// .precompact.json and meta.json are then replaced by rename without fsync, as caches of the log.
// Opening a session reconciles the two (reconcile.ts argues why that loses nothing): a crash between the
// append and the renames is repaired from the log, and history.json edited by hand still wins, logged
// as a `base` event before the session's next message so replay stays exact.
//
// history.json and meta.json are rewritten amortised, not at every checkpoint: the whole history per
// turn would make a turn cost grow with the session, and even a small file's rename rides on the turn's
// fsync (the journal commit carries it). history.json is rewritten at the session's first checkpoint,
// then once the log has grown by the file's own size or by 64 KiB, whichever is more (so the bytes
// written stay proportional to the bytes logged, and a short session pays a rename every 64 KiB, not
// every turn), at every compaction, and when the session is closed (flush). meta.json is written with
// it and whenever what it alone records changes (title, model, compaction state), at the latest every
// 64 KiB of log. It records which history.json that was and how long the log was then, so opening a
// session replays only the log after it, and a listing reads the log after meta.json's own point to
// count what it does not (meta-tail.ts); a history.json that is not that file is someone else's
// (reconcile decides). Nothing here is the record: a kill -9 between two rewrites loses nothing.
//
// A compaction keeps the history it replaced in .precompact.json. When that history is exactly the
// checkpoint in history.json, the file is hard-linked rather than rewritten (megabytes): history.json
// is only ever replaced by rename, never written in place, so the old file's content is fixed and the
// link is a complete copy. When the content differs, or the filesystem cannot link, the file is written.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { History, Message } from "../contract/history.ts";
import {
  type CompactionState,
  RESERVED_EVENT_TYPES,
  type RestoreTag,
  type SessionMeta,
} from "../contract/session.ts";
import { fsyncDir, linkFileAtomic, writeFileAtomic } from "../lib/atomic-write.ts";
import { messageJson } from "../lib/message-json.ts";
import { assertValidHistory } from "../lib/validate-history.ts";
import {
  type CompactionLog,
  type Rebuilt,
  readCompactionLog,
  rebuildBeforeCompaction,
  rebuildBeforeUncompaction,
} from "./compaction-history.ts";
import { compactionPieces } from "./compaction-pieces.ts";
import { EventsLog } from "./events-log.ts";
import { readHistoryFile, writeHistoryFile } from "./history-file.ts";
import { addedUsage, withLogTail } from "./meta-tail.ts";
import { reconcile, replayAfter } from "./reconcile.ts";
import { saveError } from "./save-error.ts";
import {
  type FileStamp,
  firstDifference,
  removeStaleTemps,
  sameFile,
  statOrUndefined,
} from "./session-files.ts";
import { newSessionId } from "./session-id.ts";
import {
  canonicalWorkspace,
  EVENTS_FILE,
  HISTORY_FILE,
  isEmptySession,
  listSessions,
  loadMeta,
  META_FILE,
  PRECOMPACT_FILE,
  resolveSessionId,
  sessionTitle,
} from "./store.ts";

export type { SessionMeta } from "../contract/session.ts";

const PENDING_OK = { allowPendingToolCalls: true } as const;
/** history.json, .precompact.json and meta.json are caches of the fsynced log: renamed, not synced */
const CACHE = { sync: false } as const;
/**
 * history.json is rewritten once the log has grown by the file's size, and by at least this much: below
 * it a rewrite costs its syscalls and a rename in the turn's journal commit, whatever its size, so a short
 * session rewrites it every 64 KiB of log rather than at every checkpoint. Opening replays at most this
 * much of the log (or the file's size) on top of it.
 */
export const HISTORY_REWRITE_MIN_BYTES = 64 * 1024;
/**
 * meta.json is written at the latest once the log has grown by this much since it was last written, so
 * a listing of a running or killed session reads at most this much of its log (plus one append).
 */
export const META_REFRESH_BYTES = 64 * 1024;
/**
 * A compaction is logged by reference (its new messages only) until the bytes logged since the last
 * whole-state event exceed this many times the new history's size; then it is logged whole. Opening a
 * session after a crash replays from the second-to-last whole-state event, so it reads at most about
 * twice this multiple of the history (plus two whole histories), and the whole histories add at most
 * 1/WHOLE_STATE_EVERY to the bytes logged, instead of one history per compaction.
 */
export const WHOLE_STATE_EVERY = 2;

function now(): string {
  return new Date().toISOString();
}

/** What history.json holds: the messages written, the file as it was right after, and where the log was. */
interface DiskCheckpoint extends FileStamp {
  history: readonly Message[];
  /** events.jsonl's size when the log's history was `history`; undefined: not a state of the log (an edit) */
  logSize: number | undefined;
}

export class Session {
  readonly id: string;
  readonly dir: string;
  meta: SessionMeta;
  private readonly events: EventsLog;
  /** the history events.jsonl replays to; equals history.json once a checkpoint completes */
  private logged: Message[];
  /** opened from history.json: the log may disagree with it until a `base` event is written */
  private needsBase = false;
  /** history.json as this session last wrote or read it (undefined: unknown, so never linked) */
  private disk: DiskCheckpoint | undefined;
  /** bytes of history-changing events logged since history.json was last written */
  private unsaved = 0;
  /** bytes logged since meta.json was last written */
  private sinceMeta = 0;
  /**
   * bytes logged after the last whole-state event (the file's start counts as one); undefined when not
   * known (an opened session), so its first compaction is logged whole
   */
  private sinceWhole: number | undefined;

  private constructor(dir: string, meta: SessionMeta, history: Message[]) {
    this.id = meta.id;
    this.dir = dir;
    this.meta = meta;
    this.events = new EventsLog(join(dir, EVENTS_FILE));
    this.logged = history;
  }

  static create(opts: {
    dataDir: string;
    workspace: string;
    provider?: string;
    model?: string;
    baseUrl?: string;
    parent?: SessionMeta["parent"];
  }): Session {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    let id = newSessionId();
    for (let attempt = 0; ; attempt++) {
      try {
        mkdirSync(join(opts.dataDir, id), { mode: 0o700 });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 20) throw err;
        id = newSessionId();
      }
    }
    const ts = now();
    const meta: SessionMeta = {
      id,
      workspace: canonicalWorkspace(opts.workspace),
      created: ts,
      updated: ts,
      ...(opts.provider ? { provider: opts.provider } : {}),
      ...(opts.model ? { model: opts.model } : {}),
      ...(opts.parent ? { parent: opts.parent } : {}),
      ...(opts.baseUrl ? { base_url: opts.baseUrl } : {}),
      messages: 0,
      compactions: 0,
    };
    const s = new Session(join(opts.dataDir, id), meta, []);
    // The record first: a crash after this line leaves a session that meta.json is rebuilt from.
    const { workspace, provider, model, base_url } = meta;
    s.sinceWhole = s.events.append([
      {
        ts,
        type: "session",
        id,
        workspace,
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
        ...(base_url ? { base_url } : {}),
      },
    ]);
    // The log's own name must survive a power cut too; later appends only extend the file.
    fsyncDir(s.dir);
    fsyncDir(opts.dataDir);
    s.writeMeta();
    return s;
  }

  /** Open session `id` (or a unique prefix of it). UserError (exit 2, one line) if missing or malformed. */
  static open(dataDir: string, id: string): Session {
    const name = resolveSessionId(dataDir, id);
    const dir = join(dataDir, name);
    const loaded = loadMeta(dir, name);
    if (!loaded) {
      throw new UserError(
        `${dir}: not a usable session (no valid ${META_FILE} and no ${EVENTS_FILE} to rebuild it from); delete the directory`,
      );
    }
    // The last update is the log's: meta.json is not rewritten at every checkpoint (its counts are
    // recomputed below, from the history opened).
    const tail = withLogTail(loaded.meta, join(dir, EVENTS_FILE));
    const meta = {
      ...loaded.meta,
      id: name,
      updated: tail.updated,
      ...(tail.usage ? { usage: tail.usage } : {}),
    };
    const file = join(dir, HISTORY_FILE);
    const statBefore = statOrUndefined(file);
    // Empty: a power cut after a rename whose data never reached the disk. The log has it all.
    const onDisk = statBefore?.size === 0 ? undefined : readHistoryFile(file);
    const s = new Session(dir, meta, []);
    removeStaleTemps(dir);
    // Whether history.json stayed the same file while it was read (else nothing is known about it).
    const st = statOrUndefined(file);
    const steady = statBefore && st && sameFile(st, statBefore) ? st : undefined;
    const opened =
      (onDisk && steady && s.openFromRecord(onDisk, steady)) ?? s.openByReconcile(onDisk, statBefore, steady);
    s.logged = [...opened.history];
    // The compaction count is exact only when the whole log was read; otherwise meta.json's stands.
    const compactions = opened.compactions;
    const recordChanged = JSON.stringify(s.historyFileRecord()) !== JSON.stringify(meta.history_file);
    const countsChanged = meta.messages !== s.logged.length || meta.compactions !== compactions;
    meta.messages = s.logged.length;
    meta.compactions = compactions;
    // Counts behind the log are no damage when meta.json records its log size: a listing counts the log
    // after it (and the session may still be running elsewhere, writing its own meta.json). Only an
    // older meta.json, or one that names another history.json, is corrected here.
    if (loaded.rebuilt || recordChanged || (countsChanged && loaded.meta.log_size === undefined))
      s.writeMeta();
    return s;
  }

  /**
   * history.json is the file meta.json recorded: it holds the log's state at the recorded length, and
   * the log after that is replayed on top. Nothing is written: a session still running elsewhere (whose
   * history.json lags by design) is left as it is, and this one rewrites the file as its own log grows.
   * Undefined when the record does not apply.
   */
  private openFromRecord(
    onDisk: History,
    st: FileStamp,
  ): { history: History; compactions: number } | undefined {
    const rec = this.meta.history_file;
    if (!rec || !sameFile(st, { ino: rec.ino, size: rec.size, mtimeMs: rec.mtime_ms })) return undefined;
    const lines = this.events.linesFrom(rec.log_size);
    const tail = lines && replayAfter(lines, onDisk);
    if (!lines || !tail) return undefined;
    this.disk = { history: [...onDisk], ...pickStamp(st), logSize: rec.log_size };
    if (tail.changed) this.unsaved = Buffer.byteLength(lines.join("\n"), "utf8");
    return { history: tail.history, compactions: this.meta.compactions + tail.compactions };
  }

  /** No usable record (a crash, an edit, an older session): reconcile history.json with the log's end. */
  private openByReconcile(
    onDisk: History | undefined,
    statBefore: FileStamp | undefined,
    steady: FileStamp | undefined,
  ): { history: History; compactions: number } {
    const logStat = statOrUndefined(this.events.path);
    // history.json is rewritten right after every compaction (whole or by reference) and every base
    // event (a forced rewrite), so a crash leaves it at most one such event behind, and an append holds
    // at most one: the log from its second-to-last whole-history event on (which replays every
    // compaction by reference after it too) is all reconcile needs.
    const tail = this.events.tailLines(2);
    const r = reconcile(tail.lines, onDisk, {
      ...(statBefore ? { history: statBefore.mtimeMs } : {}),
      ...(logStat ? { log: logStat.mtimeMs } : {}),
    });
    const history = [...r.history];
    const compactions = tail.whole ? r.compactions : this.meta.compactions;
    if (r.source === "log") {
      if (history.length > 0 || onDisk !== undefined) {
        this.writeCheckpoint(history);
        this.events.append([{ ts: now(), type: "recovered", messages: history.length }]);
      }
    } else if (steady) {
      // history.json is the log's end ("checkpoint"), or an edit the next write logs as a base event.
      const logSize = r.source === "checkpoint" ? logStat?.size : undefined;
      this.disk = { history: [...history], ...pickStamp(steady), logSize };
    }
    this.needsBase = r.source === "edited" && history.length > 0;
    return { history, compactions };
  }

  /** The newest session of `workspace` the user had (a sub-agent task's own session is never it). */
  static newest(dataDir: string, workspace: string): Session | undefined {
    const first = listSessions(dataDir, workspace).find((m) => !m.parent);
    return first ? Session.open(dataDir, first.id) : undefined;
  }

  /** Sessions of `workspace`, most recently updated first. */
  static list(dataDir: string, workspace: string): SessionMeta[] {
    return listSessions(dataDir, workspace);
  }

  /** The last checkpoint (empty for a new session). A fresh array; treat its messages as immutable. */
  history(): History {
    return [...this.logged];
  }

  /**
   * Save `history` as the new checkpoint. Messages beyond (or different from) the previous checkpoint
   * are appended to events.jsonl first; then history.json and meta.json are replaced atomically.
   * The final assistant message may still have unanswered tool calls (a batch in progress).
   */
  checkpoint(history: History): void {
    if (!this.isNew(history)) return;
    const lines = this.messageLines(history);
    try {
      this.unsaved += this.logAppended(lines, this.events.append(lines));
      this.updateCaches(history);
    } catch (err) {
      throw saveError(err, this.id, this.dir);
    }
  }

  /**
   * `checkpoint`, with the log's fsync running in the background: the returned promise resolves when
   * the checkpoint is durable (and rejects if the sync fails). The messages are in the log at once, so a
   * kill -9 loses nothing; only a power cut before the promise resolves could. The agent awaits it before
   * its next model request, and meanwhile the next budget request goes to its worker.
   */
  checkpointSyncLater(history: History): Promise<void> {
    if (!this.isNew(history)) return Promise.resolve();
    const lines = this.messageLines(history);
    try {
      const { bytes, synced } = this.events.appendSyncLater(lines);
      this.unsaved += this.logAppended(lines, bytes);
      this.updateCaches(history);
      return synced.catch((err: unknown) => Promise.reject(saveError(err, this.id, this.dir)));
    } catch (err) {
      throw saveError(err, this.id, this.dir);
    }
  }

  /** Whether `history` (validated) differs from the last checkpoint. */
  private isNew(history: History): boolean {
    assertValidHistory(history, PENDING_OK);
    return !(
      history.length === this.logged.length && firstDifference(this.logged, history) === history.length
    );
  }

  /** history.json and meta.json, when due, after the log holds `history`. */
  private updateCaches(history: History): void {
    const d = this.disk;
    const titled = this.meta.title;
    this.noteCheckpoint(history);
    // Amortised: the bytes rewritten stay proportional to the bytes logged (see the top of the file).
    const historyDue =
      !d || d.logSize === undefined || this.unsaved >= Math.max(d.size, HISTORY_REWRITE_MIN_BYTES);
    if (historyDue) this.writeCheckpoint(this.logged);
    if (historyDue || titled !== this.meta.title || this.sinceMeta >= META_REFRESH_BYTES) this.writeMeta();
  }

  /**
   * Bring history.json and meta.json up to the log (the session is being closed: whoever reads the files
   * next, a person or a tool, sees the whole session). A no-op when they are current.
   */
  flush(): void {
    // Until its base event is logged, an edited history.json is ahead of the log, not behind it.
    const historyDue = this.unsaved > 0 && !this.needsBase;
    if (historyDue) this.writeCheckpoint(this.logged);
    if (historyDue || this.sinceMeta > 0) this.writeMeta();
  }

  /**
   * Commit a compaction: `before` (the history that was compacted) goes to .precompact.json, `after`
   * becomes the checkpoint, and a `compaction` event records it with `record`.
   */
  commitCompaction(before: History, after: History, record: object): void {
    assertValidHistory(after, PENDING_OK);
    // One append holds both the messages of `before` not yet logged (they would otherwise survive only
    // in .precompact.json, which the next compaction overwrites) and the compaction itself: the moment it
    // is fsynced the compaction exists, and every file written after it is a cache of the log.
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
    else this.logAppended(lines, bytes);
    const precompact = join(this.dir, PRECOMPACT_FILE);
    if (!this.linkCheckpointAs(before, precompact)) writeHistoryFile(precompact, before, CACHE);
    this.writeCheckpoint(after);
    this.logged = [...after];
    this.meta.compactions++;
    this.touchMeta(after);
  }

  /** Every compaction and restore of this session, read from the whole log. */
  compactionLog(): CompactionLog {
    return readCompactionLog(this.dir);
  }

  compactionCount(): number {
    return this.compactionLog().compactions.length;
  }

  historyBeforeCompaction(n: number, current: History): Rebuilt {
    return rebuildBeforeCompaction(this.compactionLog(), n, current);
  }

  historyBeforeUncompaction(current: History): Rebuilt {
    return rebuildBeforeUncompaction(this.compactionLog(), current);
  }

  /**
   * Make `history` the checkpoint as an uncompaction (or its undoing): one fsynced base event carrying
   * `restore`, so replay, a listing and `/compactions` all see what happened, and a kill -9 either side
   * of the append leaves the session before or after it, whole.
   */
  restoreHistory(history: History, restore: RestoreTag): void {
    assertValidHistory(history, PENDING_OK);
    const lines = [{ ts: now(), type: "base", history: [...history], restore }];
    this.logAppended(lines, this.events.append(lines));
    this.needsBase = false;
    this.logged = [...history];
    this.writeCheckpoint(history);
    this.touchMeta(history);
  }

  /**
   * Append a line `{ts, type, ...data}` to events.jsonl, fsynced unless `durable` is false (the line is in
   * the file at once, so a kill -9 keeps it; the next durable append syncs it too).
   */
  appendEvent(type: string, data: Record<string, unknown>, durable = true): void {
    if (RESERVED_EVENT_TYPES.includes(type))
      throw new Error(`event type "${type}" is written by the session itself`);
    if ("ts" in data || "type" in data) throw new Error(`event data may not set "ts" or "type"`);
    const lines = [{ ts: now(), type, ...data }];
    this.logAppended(lines, this.events.append(lines, durable));
  }

  /** Count `bytes` (the append of `lines`) as logged since the last whole-state event; returns `bytes`. */
  private logAppended(lines: readonly Record<string, unknown>[], bytes: number): number {
    this.sinceMeta += bytes;
    // A base event is a whole state: the bytes after it are fewer than the append's (counted in full).
    if (lines.some((l) => l.type === "base")) this.sinceWhole = bytes;
    else if (this.sinceWhole !== undefined) this.sinceWhole += bytes;
    return bytes;
  }

  /** Whether the compaction to `after` is logged whole (see WHOLE_STATE_EVERY). */
  private wholeStateDue(after: History): boolean {
    if (this.sinceWhole === undefined || after.length === 0) return true;
    let size = 0;
    // The per-message JSON cache: history.json is written from the same texts right after.
    for (const m of after) size += messageJson(m).length + 1;
    return this.sinceWhole > WHOLE_STATE_EVERY * size;
  }

  /** Replace history.json with `h`, the log's current state (atomically), and remember what it holds. */
  private writeCheckpoint(h: History): void {
    const file = join(this.dir, HISTORY_FILE);
    this.disk = undefined;
    writeHistoryFile(file, h, CACHE);
    this.unsaved = 0;
    const st = statOrUndefined(file);
    const log = statOrUndefined(this.events.path);
    if (st) this.disk = { history: [...h], ...pickStamp(st), logSize: log?.size };
  }

  /** What meta.json records of history.json: only a file that holds a state of the log. */
  private historyFileRecord(): SessionMeta["history_file"] {
    const d = this.disk;
    if (!d || d.logSize === undefined) return undefined;
    return { ino: d.ino, size: d.size, mtime_ms: d.mtimeMs, log_size: d.logSize };
  }

  /**
   * Give history.json the name `path` too, when it holds exactly `h` (the messages this session wrote
   * there, the file untouched since). False when it does not, or when linking fails: write instead.
   */
  private linkCheckpointAs(h: History, path: string): boolean {
    const disk = this.disk;
    if (!disk || disk.history.length !== h.length || firstDifference(disk.history, h) !== h.length)
      return false;
    const file = join(this.dir, HISTORY_FILE);
    try {
      if (!sameFile(statSync(file), disk)) return false;
      linkFileAtomic(file, path, CACHE);
      return true;
    } catch {
      return false;
    }
  }

  /** The message events that turn the logged history into `next`; the session then counts them as logged. */
  private messageLines(next: History): Record<string, unknown>[] {
    const d = firstDifference(this.logged, next);
    const ts = now();
    const lines: Record<string, unknown>[] = [];
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

  /** meta as of checkpoint `h`, in memory (written when due). */
  private noteCheckpoint(h: History): void {
    this.meta.messages = h.length;
    this.meta.updated = now();
    if (this.meta.title === undefined) {
      const title = sessionTitle(h);
      if (title) this.meta.title = title;
    }
  }

  private touchMeta(h: History): void {
    this.noteCheckpoint(h);
    this.writeMeta();
  }

  /** Tokens (and cost, when priced) of every request so far, compacted ones included. */
  get usage(): NonNullable<SessionMeta["usage"]> | undefined {
    return this.meta.usage;
  }

  /**
   * One more model request's tokens, and its cost when its model's price is known. Logged as a `usage`
   * line, not fsynced (the turn's next checkpoint syncs it) and meta.json not rewritten: a rename per
   * request rode on every turn's fsync. meta.json's total is brought up when it is next written; opening
   * the session adds the usage lines logged after it (meta-tail.ts), so a kill -9 loses no request.
   */
  addUsage(input: number, output: number, costUsd?: number): void {
    const line = {
      ts: now(),
      type: "usage",
      input_tokens: input,
      output_tokens: output,
      ...(costUsd !== undefined ? { cost_usd: costUsd } : {}),
    };
    this.logAppended([line], this.events.append([line], false));
    this.meta.usage = addedUsage(this.meta.usage, line);
  }

  /** The user's own title for the session (`/rename`), logged so a rebuilt meta.json keeps it. */
  rename(title: string): void {
    this.meta.title = title;
    const lines = [{ ts: now(), type: "title", title }];
    this.logAppended(lines, this.events.append(lines));
    this.writeMeta();
  }

  /**
   * Record the model (and provider, and base URL) later requests use, so -c/-r resume with what the user
   * switched to rather than what the session started with.
   */
  recordModel(model: string, provider?: string, baseUrl?: string): void {
    const same =
      this.meta.model === model &&
      (provider === undefined || this.meta.provider === provider) &&
      (baseUrl === undefined || this.meta.base_url === baseUrl);
    if (same) return;
    this.meta.model = model;
    if (provider !== undefined) this.meta.provider = provider;
    if (baseUrl !== undefined) this.meta.base_url = baseUrl;
    // Logged too: meta.json is a cache, and one rebuilt from the log must not fall back to the first model.
    const lines = [
      {
        ts: now(),
        type: "model",
        model,
        ...(provider !== undefined ? { provider } : {}),
        ...(baseUrl !== undefined ? { base_url: baseUrl } : {}),
      },
    ];
    this.logAppended(lines, this.events.append(lines));
    this.writeMeta();
  }

  /**
   * Delete the session's directory if it never held a message (a console left without a word, `/new`
   * followed by nothing). Call with the session's lock held and the session no longer in use: nobody
   * else may write it meanwhile. A session killed before this runs stays on disk but is not listed.
   */
  removeIfEmpty(): boolean {
    if (this.logged.length > 0 || !isEmptySession(this.dir, this.meta)) return false;
    rmSync(this.dir, { recursive: true, force: true });
    return true;
  }

  /** The automatic-compaction state saved with the session (absent in a new or older session). */
  get compactionState(): CompactionState | undefined {
    return this.meta.compaction;
  }

  /** Save the automatic-compaction state in meta.json when it changed (it changes at most per compaction). */
  saveCompactionState(state: CompactionState): void {
    const was = this.meta.compaction;
    if (
      was &&
      was.armed === state.armed &&
      was.failures === state.failures &&
      was.compactor === state.compactor
    )
      return;
    this.meta.compaction = {
      armed: state.armed,
      failures: state.failures,
      ...(state.compactor !== undefined ? { compactor: state.compactor } : {}),
    };
    this.writeMeta();
  }

  private writeMeta(): void {
    const record = this.historyFileRecord();
    if (record) this.meta.history_file = record;
    else delete this.meta.history_file;
    // Where this meta.json is current up to: a listing counts the log after it (meta-tail.ts).
    const log = statOrUndefined(this.events.path);
    if (log) this.meta.log_size = log.size;
    else delete this.meta.log_size;
    this.sinceMeta = 0;
    writeFileAtomic(join(this.dir, META_FILE), `${JSON.stringify(this.meta, null, 2)}\n`, 0o600, CACHE);
  }
}

function pickStamp(st: FileStamp): FileStamp {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}
