// Writes that matter are atomic: a temp file in the same directory, fsync, rename, then fsync the
// directory so the rename itself survives a crash. Readers see the old file or the new one, never half.
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeAll } from "./write-all.ts";

let counter = 0;

function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
}

export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const dir = dirname(path);
  const tmp = tempNameFor(path);
  const fd = openSync(tmp, "w", mode);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncDir(dir);
}

/**
 * Give the complete file `existing` the name `path` too (a hard link, no copy), atomically: linked under
 * a temp name beside `path`, renamed over it, then the directory fsynced. Readers see the old `path` or
 * the complete file. Both must be on one filesystem. Throws when the filesystem cannot link (the caller
 * writes a copy instead); nothing is left behind then. The two names share their content, so this is
 * only safe for files that are replaced by rename, never written in place (as writeFileAtomic does).
 */
export function linkFileAtomic(existing: string, path: string): void {
  const tmp = tempNameFor(path);
  linkSync(existing, tmp);
  try {
    renameSync(tmp, path);
    // Renaming a link onto another link of the same file is a no-op that leaves the temp name behind.
    if (existsSync(tmp)) unlinkSync(tmp);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  fsyncDir(dirname(path));
}

function fsyncDir(dir: string): void {
  // Directories cannot be opened for fsync on Windows; there the rename is already durable enough.
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
