// Synchronous, complete writes to a file descriptor. writeSync may take only part of the bytes (a pipe, a
// large write) or, on a full non-blocking pipe, none at all: keep writing the rest, pausing briefly while
// the reader catches up. Used for files that matter (checkpoints, logs) and a worker's stdio replies.
import { writeSync } from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EAGAIN" && code !== "EWOULDBLOCK") throw err;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
