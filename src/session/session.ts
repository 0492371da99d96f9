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
// This file is the session's operations, in that order: log first, caches after. What is logged and how
// it is counted is session-log.ts's; when and how the caches are rewritten, session-caches.ts's; how a
// saved session is opened, session-open.ts's.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { History, Message } from "../contract/history.ts";
import {
  type CompactionState,
  RESERVED_EVENT_TYPES,
  type RestoreTag,
  type SessionMeta,
} from "../contract/session.ts";
import { fsyncDir } from "../lib/atomic-write.ts";
import { assertValidHistory } from "../lib/validate-history.ts";
import {
  type CompactionLog,
  type Rebuilt,
  readCompactionLog,
  rebuildBeforeCompaction,
  rebuildBeforeUncompaction,
} from "./compaction-history.ts";
import { addedUsage, withLogTail } from "./meta-tail.ts";
import { saveError } from "./save-error.ts";
import { META_REFRESH_BYTES, SessionCaches } from "./session-caches.ts";
import { firstDifference } from "./session-files.ts";
import { makeSessionDir } from "./session-id.ts";
import { now, SessionLog } from "./session-log.ts";
import { openHistory } from "./session-open.ts";
import {
  canonicalWorkspace,
  EVENTS_FILE,
  isEmptySession,
  listSessions,
  loadMeta,
  META_FILE,
  resolveSessionId,
  sessionTitle,
} from "./store.ts";

export type { SessionMeta } from "../contract/session.ts";
export { HISTORY_REWRITE_MIN_BYTES, META_REFRESH_BYTES } from "./session-caches.ts";
export { WHOLE_STATE_EVERY } from "./session-log.ts";

const PENDING_OK = { allowPendingToolCalls: true } as const;

export class Session {
  readonly id: string;
  readonly dir: string;
  meta: SessionMeta;
  /** events.jsonl, the record, and the history it replays to */
  private readonly log: SessionLog;
  /** history.json and meta.json, its caches */
  private readonly caches: SessionCaches;

  private constructor(dir: string, meta: SessionMeta, history: Message[]) {
    this.id = meta.id;
    this.dir = dir;
    this.meta = meta;
    this.log = new SessionLog(join(dir, EVENTS_FILE), history);
    this.caches = new SessionCaches(dir, this.log.events.path);
  }

  static create(opts: {
    dataDir: string;
    workspace: string;
    provider?: string;
    model?: string;
    baseUrl?: string;
    parent?: SessionMeta["parent"];
  }): Session {
    const id = makeSessionDir(opts.dataDir);
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
    s.log.begin(meta);
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
    const s = new Session(dir, meta, []);
    const opened = openHistory(dir, meta, s.log, s.caches);
    s.log.logged = [...opened.history];
    // The compaction count is exact only when the whole log was read; otherwise meta.json's stands.
    const compactions = opened.compactions;
    const recordChanged = JSON.stringify(s.caches.record()) !== JSON.stringify(meta.history_file);
    const countsChanged = meta.messages !== s.log.logged.length || meta.compactions !== compactions;
    meta.messages = s.log.logged.length;
    meta.compactions = compactions;
    // Counts behind the log are no damage when meta.json records its log size: a listing counts the log
    // after it (and the session may still be running elsewhere, writing its own meta.json). Only an
    // older meta.json, or one that names another history.json, is corrected here.
    if (loaded.rebuilt || recordChanged || (countsChanged && loaded.meta.log_size === undefined))
      s.writeMeta();
    return s;
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
    return [...this.log.logged];
  }

  /**
   * Save `history` as the new checkpoint. Messages beyond (or different from) the previous checkpoint
   * are appended to events.jsonl first; then history.json and meta.json are replaced atomically.
   * The final assistant message may still have unanswered tool calls (a batch in progress).
   */
  checkpoint(history: History): void {
    if (!this.isNew(history)) return;
    const lines = this.log.messageLines(history);
    try {
      this.caches.unsaved += this.log.append(lines);
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
    const lines = this.log.messageLines(history);
    try {
      const { bytes, synced } = this.log.appendSyncLater(lines);
      this.caches.unsaved += bytes;
      this.updateCaches(history);
      return synced.catch((err: unknown) => Promise.reject(saveError(err, this.id, this.dir)));
    } catch (err) {
      throw saveError(err, this.id, this.dir);
    }
  }

  /** Whether `history` (validated) differs from the last checkpoint. */
  private isNew(history: History): boolean {
    assertValidHistory(history, PENDING_OK);
    const logged = this.log.logged;
    return !(history.length === logged.length && firstDifference(logged, history) === history.length);
  }

  /** history.json and meta.json, when due, after the log holds `history`. */
  private updateCaches(history: History): void {
    const titled = this.meta.title;
    this.noteCheckpoint(history);
    const historyDue = this.caches.historyDue();
    if (historyDue) this.caches.writeHistory(this.log.logged);
    if (historyDue || titled !== this.meta.title || this.log.sinceMeta >= META_REFRESH_BYTES)
      this.writeMeta();
  }

  /**
   * Bring history.json and meta.json up to the log (the session is being closed: whoever reads the files
   * next, a person or a tool, sees the whole session). A no-op when they are current.
   */
  flush(): void {
    // Until its base event is logged, an edited history.json is ahead of the log, not behind it.
    const historyDue = this.caches.unsaved > 0 && !this.log.needsBase;
    if (historyDue) this.caches.writeHistory(this.log.logged);
    if (historyDue || this.log.sinceMeta > 0) this.writeMeta();
  }

  /**
   * Commit a compaction: `before` (the history that was compacted) goes to .precompact.json, `after`
   * becomes the checkpoint, and a `compaction` event records it with `record`.
   */
  commitCompaction(before: History, after: History, record: object): void {
    assertValidHistory(after, PENDING_OK);
    // The compaction exists once its event is fsynced: every file written after it is a cache of the log.
    this.log.appendCompaction(before, after, record);
    this.caches.writePrecompact(before);
    this.caches.writeHistory(after);
    this.log.logged = [...after];
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
    this.log.append([{ ts: now(), type: "base", history: [...history], restore }]);
    this.log.needsBase = false;
    this.log.logged = [...history];
    this.caches.writeHistory(history);
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
    this.log.append([{ ts: now(), type, ...data }], durable);
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
    this.log.append([line], false);
    this.meta.usage = addedUsage(this.meta.usage, line);
  }

  /** The user's own title for the session (`/rename`), logged so a rebuilt meta.json keeps it. */
  rename(title: string): void {
    this.meta.title = title;
    this.log.append([{ ts: now(), type: "title", title }]);
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
    this.log.append([
      {
        ts: now(),
        type: "model",
        model,
        ...(provider !== undefined ? { provider } : {}),
        ...(baseUrl !== undefined ? { base_url: baseUrl } : {}),
      },
    ]);
    this.writeMeta();
  }

  /**
   * Delete the session's directory if it never held a message (a console left without a word, `/new`
   * followed by nothing). Call with the session's lock held and the session no longer in use: nobody
   * else may write it meanwhile. A session killed before this runs stays on disk but is not listed.
   */
  removeIfEmpty(): boolean {
    if (this.log.logged.length > 0 || !isEmptySession(this.dir, this.meta)) return false;
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
    this.log.sinceMeta = 0;
    this.caches.writeMeta(this.meta);
  }
}
