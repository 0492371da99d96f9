// One saved session: I_DATA_DIR/<id>/ with history.json (the current checkpoint),
// .precompact.json (the history before the latest compaction), events.jsonl (append-only log of every
// message and compaction) and meta.json.
//
// Crash safety: events.jsonl is the write-ahead record. Every checkpoint appends its new messages (a
// compaction: its compaction event, with the new history) in one write and fsyncs it, once; history.json,
// .precompact.json and meta.json are then replaced by rename without fsync, as caches of the log.
// Opening a session reconciles the two (reconcile.ts argues why that loses nothing): a crash between the
// append and the renames is repaired from the log, and history.json edited by hand still wins, logged
// as a `base` event before the session's next message so replay stays exact.
//
// A compaction keeps the history it replaced in .precompact.json. That history is almost always the
// checkpoint already in history.json, so the file is hard-linked rather than rewritten (megabytes):
// history.json is only ever replaced by rename, never written in place, so the old file's content is
// fixed and the link is a complete copy. When the content differs, or the filesystem cannot link, the
// file is written as before.
import { mkdirSync, readdirSync, type Stats, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { History, Message } from "../contract/history.ts";
import { fsyncDir, linkFileAtomic, writeFileAtomic } from "../contract/lib/atomic-write.ts";
import { assertValidHistory } from "../contract/lib/validate-history.ts";
import { type CompactionState, RESERVED_EVENT_TYPES, type SessionMeta } from "../contract/session.ts";
import { EventsLog } from "./events-log.ts";
import { readHistoryFile, writeHistoryFile } from "./history-file.ts";
import { reconcile } from "./reconcile.ts";
import { newSessionId } from "./session-id.ts";
import {
  canonicalWorkspace,
  EVENTS_FILE,
  HISTORY_FILE,
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

function now(): string {
  return new Date().toISOString();
}

/** What history.json holds: the messages written, and the file as it was right after the write. */
interface DiskCheckpoint {
  history: readonly Message[];
  ino: number;
  size: number;
  mtimeMs: number;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function sameFile(a: Stats, b: Pick<DiskCheckpoint, "ino" | "size" | "mtimeMs">): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Index of the first message where `next` differs from `prev` (messages are compared by value). */
function firstDifference(prev: readonly Message[], next: readonly Message[]): number {
  const n = Math.min(prev.length, next.length);
  for (let i = 0; i < n; i++) {
    const a = prev[i];
    const b = next[i];
    // Messages are treated as immutable, so the same object means the same message; only copies cost.
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return i;
  }
  return n;
}

/** Temp files (`.NAME.PID.N.tmp`) a killed process left behind; those of a live process are its own. */
function removeStaleTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\..+\.(\d+)\.\d+\.tmp$/.exec(name)?.[1];
    if (!pid || processAlive(Number(pid))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {}
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
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

  private constructor(dir: string, meta: SessionMeta, history: Message[]) {
    this.id = meta.id;
    this.dir = dir;
    this.meta = meta;
    this.events = new EventsLog(join(dir, EVENTS_FILE));
    this.logged = history;
  }

  static create(opts: { dataDir: string; workspace: string; provider?: string; model?: string }): Session {
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
      messages: 0,
      compactions: 0,
    };
    const s = new Session(join(opts.dataDir, id), meta, []);
    // The record first: a crash after this line leaves a session that meta.json is rebuilt from.
    const { workspace, provider, model } = meta;
    s.events.append([
      { ts, type: "session", id, workspace, ...(provider ? { provider } : {}), ...(model ? { model } : {}) },
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
    const meta = { ...loaded.meta, id: name };
    const file = join(dir, HISTORY_FILE);
    const statBefore = statOrUndefined(file);
    // Empty: a power cut after a rename whose data never reached the disk. The log has it all.
    const onDisk = statBefore?.size === 0 ? undefined : readHistoryFile(file);
    const s = new Session(dir, meta, []);
    removeStaleTemps(dir);
    const logStat = statOrUndefined(s.events.path);
    // A crash leaves history.json at most one append behind, and an append holds at most one
    // whole-history event: the last two such events (and what follows) are all reconcile needs.
    const tail = s.events.tailLines(2);
    const r = reconcile(tail.lines, onDisk, {
      ...(statBefore ? { history: statBefore.mtimeMs } : {}),
      ...(logStat ? { log: logStat.mtimeMs } : {}),
    });
    const history = [...r.history];
    if (r.source === "log") {
      if (history.length > 0 || onDisk !== undefined) {
        s.writeCheckpoint(history);
        s.events.append([{ ts: now(), type: "recovered", messages: history.length }]);
      }
    } else {
      // Remember the file only if it did not change while it was read.
      const st = statOrUndefined(file);
      if (statBefore && st && sameFile(st, statBefore))
        s.disk = { history: [...history], ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    }
    s.logged = history;
    s.needsBase = r.source === "edited" && history.length > 0;
    // The compaction count is exact only when the whole log was read; otherwise meta.json's stands.
    const compactions = tail.whole ? r.compactions : meta.compactions;
    if (loaded.rebuilt || meta.messages !== history.length || meta.compactions !== compactions) {
      meta.messages = history.length;
      meta.compactions = compactions;
      s.writeMeta();
    }
    return s;
  }

  static newest(dataDir: string, workspace: string): Session | undefined {
    const first = listSessions(dataDir, workspace)[0];
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
    assertValidHistory(history, PENDING_OK);
    if (history.length === this.logged.length && firstDifference(this.logged, history) === history.length)
      return;
    this.logMessages(history);
    this.writeCheckpoint(history);
    this.touchMeta(history);
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
    lines.push({
      ts: now(),
      type: "compaction",
      messages_before: before.length,
      record: { ...record },
      history: after,
    });
    this.events.append(lines);
    const precompact = join(this.dir, PRECOMPACT_FILE);
    if (!this.linkCheckpointAs(before, precompact)) writeHistoryFile(precompact, before, CACHE);
    this.writeCheckpoint(after);
    this.logged = [...after];
    this.meta.compactions++;
    this.touchMeta(after);
  }

  /** Append a line `{ts, type, ...data}` to events.jsonl (fsynced). */
  appendEvent(type: string, data: Record<string, unknown>): void {
    if (RESERVED_EVENT_TYPES.includes(type))
      throw new Error(`event type "${type}" is written by the session itself`);
    if ("ts" in data || "type" in data) throw new Error(`event data may not set "ts" or "type"`);
    this.events.append([{ ts: now(), type, ...data }]);
  }

  /** Replace history.json with `h` (atomically) and remember what it now holds. */
  private writeCheckpoint(h: History): void {
    const file = join(this.dir, HISTORY_FILE);
    this.disk = undefined;
    writeHistoryFile(file, h, CACHE);
    const st = statOrUndefined(file);
    if (st) this.disk = { history: [...h], ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
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

  /** Append (and fsync: the checkpoint's one sync) the message events that turn the logged history into `next`. */
  private logMessages(next: History): void {
    this.events.append(this.messageLines(next));
  }

  /** The message events that turn the logged history into `next`; the session then counts them as logged. */
  private messageLines(next: History): Record<string, unknown>[] {
    const d = firstDifference(this.logged, next);
    const ts = now();
    const lines: Record<string, unknown>[] = [];
    if (this.needsBase) lines.push({ ts, type: "base", history: this.logged });
    if (d === next.length && next.length < this.logged.length)
      lines.push({ ts, type: "truncate", length: next.length });
    for (let i = d; i < next.length; i++) lines.push({ ts, type: "message", index: i, message: next[i] });
    this.needsBase = false;
    this.logged = [...next];
    return lines;
  }

  private touchMeta(h: History): void {
    this.meta.messages = h.length;
    this.meta.updated = now();
    if (this.meta.title === undefined) {
      const title = sessionTitle(h);
      if (title) this.meta.title = title;
    }
    this.writeMeta();
  }

  /**
   * Record the model (and provider) later requests use, so -c/-r resume with what the user switched to
   * rather than what the session started with.
   */
  recordModel(model: string, provider?: string): void {
    if (this.meta.model === model && (provider === undefined || this.meta.provider === provider)) return;
    this.meta.model = model;
    if (provider !== undefined) this.meta.provider = provider;
    // Logged too: meta.json is a cache, and one rebuilt from the log must not fall back to the first model.
    this.events.append([
      { ts: now(), type: "model", model, ...(provider !== undefined ? { provider } : {}) },
    ]);
    this.writeMeta();
  }

  /** The automatic-compaction state saved with the session (absent in a new or older session). */
  get compactionState(): CompactionState | undefined {
    return this.meta.compaction;
  }

  /** Save the automatic-compaction state in meta.json when it changed (it changes at most per compaction). */
  saveCompactionState(state: CompactionState): void {
    const was = this.meta.compaction;
    if (was && was.armed === state.armed && was.failures === state.failures) return;
    this.meta.compaction = { armed: state.armed, failures: state.failures };
    this.writeMeta();
  }

  private writeMeta(): void {
    writeFileAtomic(join(this.dir, META_FILE), `${JSON.stringify(this.meta, null, 2)}\n`, 0o600, CACHE);
  }
}
