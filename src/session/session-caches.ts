// history.json and meta.json: caches of the fsynced log, replaced by rename without fsync. They are
// rewritten amortised, not at every checkpoint: the whole history per turn would make a turn cost grow
// with the session, and even a small file's rename rides on the turn's fsync (the journal commit carries
// it). history.json is rewritten at the session's first checkpoint, then once the log has grown by the
// file's own size or by 64 KiB, whichever is more (so the bytes written stay proportional to the bytes
// logged, and a short session pays a rename every 64 KiB, not every turn), at every compaction, and when
// the session is closed (flush). meta.json is written with it and whenever what it alone records changes
// (title, model, compaction state), at the latest every 64 KiB of log. It records which history.json that
// was and how long the log was then, so opening a session replays only the log after it, and a listing
// reads the log after meta.json's own point to count what it does not (meta-tail.ts); a history.json
// that is not that file is someone else's (reconcile decides). Nothing here is the record: a kill -9
// between two rewrites loses nothing.
//
// A compaction keeps the history it replaced in .precompact.json. When that history is exactly the
// checkpoint in history.json, the file is hard-linked rather than rewritten (megabytes): history.json
// is only ever replaced by rename, never written in place, so the old file's content is fixed and the
// link is a complete copy. When the content differs, or the filesystem cannot link, the file is written.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { History, Message } from "../contract/history.ts";
import type { SessionMeta } from "../contract/session.ts";
import { linkFileAtomic, writeFileAtomic } from "../lib/atomic-write.ts";
import { writeHistoryFile } from "./history-file.ts";
import { type FileStamp, firstDifference, sameFile, statOrUndefined } from "./session-files.ts";
import { HISTORY_FILE, META_FILE, PRECOMPACT_FILE } from "./store.ts";

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

/** What history.json holds: the messages written, the file as it was right after, and where the log was. */
export interface DiskCheckpoint extends FileStamp {
  history: readonly Message[];
  /** events.jsonl's size when the log's history was `history`; undefined: not a state of the log (an edit) */
  logSize: number | undefined;
}

export function pickStamp(st: FileStamp): FileStamp {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

export class SessionCaches {
  /** history.json as this session last wrote or read it (undefined: unknown, so never linked) */
  disk: DiskCheckpoint | undefined;
  /** bytes of history-changing events logged since history.json was last written */
  unsaved = 0;

  constructor(
    private readonly dir: string,
    private readonly logPath: string,
  ) {}

  /** Whether history.json is due a rewrite (amortised: see the top of the file). */
  historyDue(): boolean {
    const d = this.disk;
    return !d || d.logSize === undefined || this.unsaved >= Math.max(d.size, HISTORY_REWRITE_MIN_BYTES);
  }

  /** Replace history.json with `h`, the log's current state (atomically), and remember what it holds. */
  writeHistory(h: History): void {
    const file = join(this.dir, HISTORY_FILE);
    this.disk = undefined;
    writeHistoryFile(file, h, CACHE);
    this.unsaved = 0;
    const st = statOrUndefined(file);
    const log = statOrUndefined(this.logPath);
    if (st) this.disk = { history: [...h], ...pickStamp(st), logSize: log?.size };
  }

  /** .precompact.json holds `before`: linked to history.json when that holds exactly it, else written. */
  writePrecompact(before: History): void {
    const precompact = join(this.dir, PRECOMPACT_FILE);
    if (!this.linkHistoryAs(before, precompact)) writeHistoryFile(precompact, before, CACHE);
  }

  /** What meta.json records of history.json: only a file that holds a state of the log. */
  record(): SessionMeta["history_file"] {
    const d = this.disk;
    if (!d || d.logSize === undefined) return undefined;
    return { ino: d.ino, size: d.size, mtime_ms: d.mtimeMs, log_size: d.logSize };
  }

  /** Write `meta` (with what it records of history.json and the log) to meta.json. */
  writeMeta(meta: SessionMeta): void {
    const record = this.record();
    if (record) meta.history_file = record;
    else delete meta.history_file;
    // Where this meta.json is current up to: a listing counts the log after it (meta-tail.ts).
    const log = statOrUndefined(this.logPath);
    if (log) meta.log_size = log.size;
    else delete meta.log_size;
    writeFileAtomic(join(this.dir, META_FILE), `${JSON.stringify(meta, null, 2)}\n`, 0o600, CACHE);
  }

  /**
   * Give history.json the name `path` too, when it holds exactly `h` (the messages this session wrote
   * there, the file untouched since). False when it does not, or when linking fails: write instead.
   */
  private linkHistoryAs(h: History, path: string): boolean {
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
}
