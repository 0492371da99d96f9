// Opening and writing files inside the workspace without a check-then-use race. Resolving a path and
// then opening it by name leaves a window in which another process can swap a directory on the way for a
// symlink to somewhere else (a rename-exchange loop wins it often). So on Linux:
// - reads open first, then check where the opened descriptor really is (/proc/self/fd/N names the file
//   the descriptor refers to, however it was reached) and refuse it when that is outside;
// - writes walk from the workspace root one directory at a time, each opened and checked the same way,
//   and create, fill and rename the temp file through /proc/self/fd/DIRFD/NAME: that path starts at the
//   checked directory itself, so no later swap of a name above it can redirect the write. Missing
//   directories are created inside the directory just checked, never through a swapped name.
// Elsewhere (no /proc) the path checks before opening are all there is.
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
} from "node:fs";
import { relative, sep } from "node:path";
import { descriptorInside } from "../lib/paths.ts";
import { writeAll } from "../lib/write-all.ts";
import { ToolError } from "./tool-error.ts";

const PROC_FD = process.platform === "linux";
let counter = 0;

/** Close `fd` and refuse when it is not inside `root` (a real path). No-op without `root`. */
export function checkDescriptor(fd: number, root: string | undefined, shown: string): void {
  if (root === undefined || descriptorInside(fd, root)) return;
  closeSync(fd);
  throw new ToolError(
    `path "${shown}" led outside the workspace while it was being opened (a symbolic link was swapped in); refused`,
  );
}

function openDir(path: string): number {
  return openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
}

/**
 * A descriptor of directory `dir` (a real path inside `root`), reached one component at a time from
 * `root`, each checked; missing ones are created (mode 0777 & umask) inside the checked parent.
 */
function openDirWalk(root: string, dir: string, shown: string): number {
  const rel = relative(root, dir);
  let fd = openDir(root);
  try {
    for (const name of rel === "" ? [] : rel.split(sep)) {
      const path = `/proc/self/fd/${fd}/${name}`;
      try {
        mkdirSync(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      let next: number;
      try {
        next = openDir(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOTDIR")
          throw new ToolError(`cannot create ${shown}: a parent of it is a file, not a directory`);
        throw err;
      }
      closeSync(fd);
      fd = next;
      checkDescriptor(fd, root, shown);
    }
    return fd;
  } catch (err) {
    try {
      closeSync(fd);
    } catch {}
    throw err;
  }
}

/**
 * Write `data` to `real` atomically (temp file, fsync, rename, directory fsync), creating parent
 * directories. With `root` (confined to the workspace) and /proc, every step goes through a checked
 * directory descriptor; a failed write leaves no temp file.
 */
export function writeConfined(
  real: string,
  data: string | Uint8Array,
  mode: number,
  root: string | undefined,
  shown: string,
): void {
  const cut = real.lastIndexOf(sep);
  const dir = real.slice(0, cut) || sep;
  const name = real.slice(cut + 1);
  const dirFd = root !== undefined && PROC_FD ? openDirWalk(root, dir, shown) : undefined;
  if (dirFd === undefined) mkdirSync(dir, { recursive: true });
  const base = dirFd === undefined ? dir : `/proc/self/fd/${dirFd}`;
  const tmp = `${base}/.${name}.${process.pid}.${++counter}.tmp`;
  try {
    const fd = openSync(
      tmp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, `${base}/${name}`);
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {}
      throw err;
    }
    if (dirFd !== undefined) fsyncSync(dirFd);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  } finally {
    if (dirFd !== undefined) closeSync(dirFd);
  }
}

/** Whether fstat says regular file; a FIFO or device opened non-blocking is refused before any read. */
export function isRegular(fd: number): boolean {
  return fstatSync(fd).isFile();
}
