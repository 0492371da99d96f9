// A command's output (stdout and stderr, interleaved in the order written) captured through a file
// instead of pipes. Reading a pipe costs a 64 KiB reader buffer per stream per command that the
// collector frees late: one-line commands, turn after turn, made that the largest garbage of a long
// session (S0, 1,000 turns: the tree's peak 104 -> 92 MB without it). The file is created exclusive
// and private and unlinked at once, so nothing is left behind even after a kill -9, and nobody else can
// open it; the child writes through an O_APPEND descriptor and the reader takes what is new from where
// it stopped, into one buffer shared by every command.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { procStat } from "../runtime/proc-stat.ts";

/**
 * Past this many bytes since the last cut, the file is emptied after everything in it was read (the
 * child's appends then start at the beginning again): a command that prints without end fills no disk.
 * Bytes the child writes between that last read and the cut are not seen; they are deep in an output
 * that is cut in the middle anyway (only its head and tail are kept).
 */
const FILE_CUT_BYTES = 32 * 1024 * 1024;

const scratch = Buffer.allocUnsafe(64 * 1024);

export class OutputFile {
  /** the descriptor to hand to the child for both stdout and stderr */
  readonly fd: number;
  private at = 0;

  constructor(private readonly cutBytes = FILE_CUT_BYTES) {
    const dir = tmpdir();
    const path = join(dir, `i-output-${process.pid}-${randomBytes(8).toString("hex")}`);
    try {
      this.fd = openSync(path, "ax+", 0o600);
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new Error(
        `cannot create a file for the command's output in ${dir} (${why}); set TMPDIR to a writable directory`,
      );
    }
    unlinkSync(path);
  }

  /** Everything written since the last call, chunk by chunk (each its own copy). */
  drain(onChunk: (chunk: Buffer) => void): void {
    for (;;) {
      const n = readSync(this.fd, scratch, 0, scratch.length, this.at);
      if (n === 0) break;
      this.at += n;
      onChunk(Buffer.from(scratch.subarray(0, n)));
    }
    if (this.at >= this.cutBytes) {
      ftruncateSync(this.fd, 0);
      this.at = 0;
    }
  }

  /**
   * Whether a process of group `pgid` still has the file open (what a process left in the background
   * writes to), from /proc; undefined where there is no /proc to tell. A background process that sent
   * its output elsewhere (`server > log 2>&1 &`) does not count.
   */
  heldByGroup(pgid: number): boolean | undefined {
    let pids: string[];
    try {
      pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
    } catch {
      return undefined;
    }
    const { ino, dev } = fstatSync(this.fd);
    for (const pid of pids) {
      if (Number(pid) === process.pid || !inGroup(pid, pgid)) continue;
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        try {
          const st = statSync(`/proc/${pid}/fd/${fd}`);
          if (st.ino === ino && st.dev === dev) return true;
        } catch {}
      }
    }
    return false;
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {}
  }
}

/** Whether process `pid` is in process group `pgid` (field 5 of its stat). */
const inGroup = (pid: string, pgid: number): boolean => Number(procStat(pid)?.(5)) === pgid;
