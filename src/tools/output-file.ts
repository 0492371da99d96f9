// A command's output (stdout and stderr, interleaved in the order written) captured through a file
// instead of pipes. Reading a pipe costs a 64 KiB reader buffer per stream per command that the
// collector frees late: one-line commands, turn after turn, made that the largest garbage of a long
// session (S0, 1,000 turns: the tree's peak 104 -> 92 MB without it). The file is created exclusive
// and private and unlinked at once, so nothing is left behind even after a kill -9, and nobody else can
// open it; the child writes through an O_APPEND descriptor and the reader takes what is new from where
// it stopped, into one buffer shared by every command.
import { randomBytes } from "node:crypto";
import { closeSync, ftruncateSync, openSync, readSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

  close(): void {
    try {
      closeSync(this.fd);
    } catch {}
  }
}
