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

/** Why a file was refused: what callers that word their own line (an attachment) tell apart. */
export type RefusedBecause = "directory" | "not-regular" | "too-large" | "unreadable";

/** A refused file: one line naming it and the fix (a UserError), with the reason for callers. */
export class RefusedFile extends UserError {
  constructor(
    message: string,
    readonly because: RefusedBecause,
    /** its size, when it was too large; what it is, when it is no regular file ("a FIFO (named pipe)") */
    readonly detail: { size?: number; kind?: string } = {},
  ) {
    super(message);
  }
}

/**
 * The bytes of `file`, or undefined when it does not exist: the one way `i` reads a file someone else may
 * have put there (a project's config, a pasted path). Anything but a regular file (symlinks are followed
 * to their target) and anything over `maxBytes` is a RefusedFile. The file is opened non-blocking, so
 * opening a FIFO returns at once instead of waiting for a writer; fstat then refuses it, and a device
 * (a link to /dev/zero) is refused the same way before a byte is read.
 */
export function readRegularBytes(file: string, maxBytes: number, what = "this file"): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    if (code === "EISDIR")
      throw new RefusedFile(`${file}: is a directory, not a file; remove it or rename it`, "directory", {
        kind: "a directory",
      });
    throw new RefusedFile(`${file}: cannot read: ${(err as Error).message}`, "unreadable");
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new RefusedFile(
        `${file}: is ${kindOf(st)}, not a regular file; replace it with a regular file`,
        st.isDirectory() ? "directory" : "not-regular",
        { kind: kindOf(st) },
      );
    const tooBig = (size: number) =>
      new RefusedFile(
        `${file}: larger than the ${formatBytes(maxBytes)} limit for ${what}; shorten it`,
        "too-large",
        { size },
      );
    if (st.size > maxBytes) throw tooBig(st.size);
    // The size can change between fstat and read: read at most one byte past the cap to notice.
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, st.size) + 1);
    let len = 0;
    for (;;) {
      if (len === buf.length) break;
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
    }
    if (len > maxBytes) throw tooBig(len);
    return buf.subarray(0, len);
  } finally {
    closeSync(fd);
  }
}

/** The UTF-8 text of `file`, or undefined when it does not exist; refused as readRegularBytes refuses. */
export function readRegularFile(file: string, maxBytes: number, what = "this file"): string | undefined {
  return readRegularBytes(file, maxBytes, what)?.toString("utf8");
}
