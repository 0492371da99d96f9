// Reading a file the user points `i` at (config, prompt template, manifest) without trusting what it is:
// a FIFO would block the read forever and /dev/zero never ends, so only regular files are read, and
// never more than a stated number of bytes. Every refusal is one line naming the file and the fix.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { UserError } from "../contract/errors.ts";
import { formatBytes } from "./truncate.ts";

/** What a non-regular file is, for the error line. */
function kindOf(st: ReturnType<typeof fstatSync>): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * The UTF-8 text of `file`, or undefined when it does not exist. Anything but a regular file (symlinks are
 * followed to their target) and anything over `maxBytes` is a UserError. The file is opened non-blocking
 * so opening a FIFO returns at once instead of waiting for a writer; fstat then refuses it.
 */
export function readRegularFile(file: string, maxBytes: number, what = "this file"): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    if (code === "EISDIR") throw new UserError(`${file}: is a directory, not a file; remove it or rename it`);
    throw new UserError(`${file}: cannot read: ${(err as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new UserError(`${file}: is ${kindOf(st)}, not a regular file; replace it with a regular file`);
    const tooBig = () =>
      new UserError(`${file}: larger than the ${formatBytes(maxBytes)} limit for ${what}; shorten it`);
    if (st.size > maxBytes) throw tooBig();
    // The size can change between fstat and read: read at most one byte past the cap to notice.
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, st.size) + 1);
    let len = 0;
    for (;;) {
      if (len === buf.length) break;
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
    }
    if (len > maxBytes) throw tooBig();
    return buf.subarray(0, len).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
