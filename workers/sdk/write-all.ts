// Synchronous, complete writes to a file descriptor. A pipe may take a write only in part (or, when it is
// non-blocking and full, not at all): keep writing the rest, pausing briefly while the reader catches up.
import { writeSync } from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
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
