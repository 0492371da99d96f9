// Writes that matter are atomic: a temp file in the same directory, fsync, rename, then fsync the
// directory so the rename itself survives a crash. Readers see the old file or the new one, never half.
// A file that is only a cache of a durable record elsewhere (a session's history.json, rebuilt from its
// fsynced events.jsonl) may skip both fsyncs (`sync: false`): the rename still makes it whole-or-old for
// every reader, and a crash is repaired from the record.
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { crashPoint } from "./fs-boundary.ts";
import { writeAll } from "./write-all.ts";

export interface AtomicOptions {
  /** fsync the file and its directory (default true) */
  sync?: boolean;
}

let counter = 0;

function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
}

export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = 0o644,
  opts: AtomicOptions = {},
): void {
  const sync = opts.sync !== false;
  const dir = dirname(path);
  const tmp = tempNameFor(path);
  const fd = openSync(tmp, "w", mode);
  try {
    crashPoint("write", tmp);
    writeAll(fd, data);
    if (sync) {
      crashPoint("fsync", tmp);
      fsyncSync(fd);
    }
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  closeSync(fd);
  crashPoint("rename", path);
  renameSync(tmp, path);
  if (sync) fsyncDir(dir);
}

/**
 * Give the complete file `existing` the name `path` too (a hard link, no copy), atomically: linked under
 * a temp name beside `path`, renamed over it, then the directory fsynced. Readers see the old `path` or
 * the complete file. Both must be on one filesystem. Throws when the filesystem cannot link (the caller
 * writes a copy instead); nothing is left behind then. The two names share their content, so this is
 * only safe for files that are replaced by rename, never written in place (as writeFileAtomic does).
 */
export function linkFileAtomic(existing: string, path: string, opts: AtomicOptions = {}): void {
  const tmp = tempNameFor(path);
  crashPoint("link", tmp);
  linkSync(existing, tmp);
  try {
    crashPoint("rename", path);
    renameSync(tmp, path);
    // Renaming a link onto another link of the same file is a no-op that leaves the temp name behind.
    if (existsSync(tmp)) unlinkSync(tmp);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  if (opts.sync !== false) fsyncDir(dirname(path));
}

export function fsyncDir(dir: string): void {
  // Directories cannot be opened for fsync on Windows; there the rename is already durable enough.
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    crashPoint("fsync", dir);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
