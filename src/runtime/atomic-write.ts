// Writes that matter are atomic: a temp file in the same directory, fsync, rename, then fsync the
// directory so the rename itself survives a crash. Readers see the old file or the new one, never half.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

let counter = 0;

export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  const fd = openSync(tmp, "w", mode);
  try {
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
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
