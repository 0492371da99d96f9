// Opening a saved session: which history it holds, from history.json and the log after it. When
// meta.json's record of history.json still applies, the log after the recorded point is replayed on it
// and nothing is written; otherwise (a crash, an edit, an older session) the two are reconciled
// (reconcile.ts argues why that loses nothing), and a history rebuilt from the log is written back.
import { join } from "node:path";
import type { History } from "../contract/history.ts";
import type { SessionMeta } from "../contract/session.ts";
import { readHistoryFile } from "./history-file.ts";
import { reconcile, replayAfter } from "./reconcile.ts";
import { pickStamp, type SessionCaches } from "./session-caches.ts";
import { type FileStamp, removeStaleTemps, sameFile, statOrUndefined } from "./session-files.ts";
import { now, type SessionLog } from "./session-log.ts";
import { HISTORY_FILE } from "./store.ts";

export interface OpenedHistory {
  history: History;
  compactions: number;
}

/** The history of the session in `dir`, with `log` and `caches` set to match what is on disk. */
export function openHistory(
  dir: string,
  meta: SessionMeta,
  log: SessionLog,
  caches: SessionCaches,
): OpenedHistory {
  const file = join(dir, HISTORY_FILE);
  const statBefore = statOrUndefined(file);
  // Empty: a power cut after a rename whose data never reached the disk. The log has it all.
  const onDisk = statBefore?.size === 0 ? undefined : readHistoryFile(file);
  removeStaleTemps(dir);
  // Whether history.json stayed the same file while it was read (else nothing is known about it).
  const st = statOrUndefined(file);
  const steady = statBefore && st && sameFile(st, statBefore) ? st : undefined;
  return (
    (onDisk && steady && fromRecord(meta, log, caches, onDisk, steady)) ??
    byReconcile(meta, log, caches, onDisk, statBefore, steady)
  );
}

/**
 * history.json is the file meta.json recorded: it holds the log's state at the recorded length, and
 * the log after that is replayed on top. Nothing is written: a session still running elsewhere (whose
 * history.json lags by design) is left as it is, and this one rewrites the file as its own log grows.
 * Undefined when the record does not apply.
 */
function fromRecord(
  meta: SessionMeta,
  log: SessionLog,
  caches: SessionCaches,
  onDisk: History,
  st: FileStamp,
): OpenedHistory | undefined {
  const rec = meta.history_file;
  if (!rec || !sameFile(st, { ino: rec.ino, size: rec.size, mtimeMs: rec.mtime_ms })) return undefined;
  const lines = log.events.linesFrom(rec.log_size);
  const tail = lines && replayAfter(lines, onDisk);
  if (!lines || !tail) return undefined;
  caches.disk = { history: [...onDisk], ...pickStamp(st), logSize: rec.log_size };
  if (tail.changed) caches.unsaved = Buffer.byteLength(lines.join("\n"), "utf8");
  return { history: tail.history, compactions: meta.compactions + tail.compactions };
}

/** No usable record (a crash, an edit, an older session): reconcile history.json with the log's end. */
function byReconcile(
  meta: SessionMeta,
  log: SessionLog,
  caches: SessionCaches,
  onDisk: History | undefined,
  statBefore: FileStamp | undefined,
  steady: FileStamp | undefined,
): OpenedHistory {
  const logStat = statOrUndefined(log.events.path);
  // history.json is rewritten right after every compaction (whole or by reference) and every base
  // event (a forced rewrite), so a crash leaves it at most one such event behind, and an append holds
  // at most one: the log from its second-to-last whole-history event on (which replays every
  // compaction by reference after it too) is all reconcile needs.
  const tail = log.events.tailLines(2);
  const r = reconcile(tail.lines, onDisk, {
    ...(statBefore ? { history: statBefore.mtimeMs } : {}),
    ...(logStat ? { log: logStat.mtimeMs } : {}),
  });
  const history = [...r.history];
  const compactions = tail.whole ? r.compactions : meta.compactions;
  if (r.source === "log") {
    if (history.length > 0 || onDisk !== undefined) {
      caches.writeHistory(history);
      log.events.append([{ ts: now(), type: "recovered", messages: history.length }]);
    }
  } else if (steady) {
    // history.json is the log's end ("checkpoint"), or an edit the next write logs as a base event.
    const logSize = r.source === "checkpoint" ? logStat?.size : undefined;
    caches.disk = { history: [...history], ...pickStamp(steady), logSize };
  }
  log.needsBase = r.source === "edited" && history.length > 0;
  return { history, compactions };
}
