// The whole output of a command whose result had to be cut, saved in the session's directory so the
// model can read the part it did not see (read with offset/limit) instead of running the command again.
// Bounded: one output is saved up to SAVED_OUTPUT_MAX_BYTES, and only the newest SAVED_OUTPUTS_KEPT stay;
// the files live and go with the session. The model reads them with `read` (the one place outside the
// workspace it may read): they hold only what its own commands printed.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { isInside } from "../lib/paths.ts";
import { formatBytes } from "../lib/truncate.ts";

export const SAVED_OUTPUT_MAX_BYTES = 32 * 1024 * 1024;
export const SAVED_OUTPUTS_KEPT = 20;

export interface SavedFile {
  path: string;
  bytes: number;
  lines: number;
  /** false when the output went on past SAVED_OUTPUT_MAX_BYTES (the file holds its start) */
  complete: boolean;
}

export class SavedOutputs {
  constructor(readonly dir: string) {}

  /** The real path of a saved output `p` names (absolute), or undefined when `p` is not one. */
  resolve(p: string): string | undefined {
    const abs = resolve(p);
    if (!isInside(this.dir, abs) || abs === this.dir) return undefined;
    try {
      if (!lstatSync(abs).isFile()) return undefined;
      const real = realpathSync(abs);
      return isInside(realpathSync(this.dir), real) ? real : undefined;
    } catch {
      return undefined;
    }
  }

  /** A collector for one command's output that saves it once it grows past `threshold` bytes. */
  start(threshold: number): OutputSpill {
    return new OutputSpill(this, threshold);
  }

  /** A new private file for one output. */
  create(): { fd: number; path: string } {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const name = `bash-${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.txt`;
    const path = join(this.dir, name);
    return { fd: openSync(path, "wx", 0o600), path };
  }

  /** Remove all but the newest SAVED_OUTPUTS_KEPT (names start with their time). */
  prune(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir)
        .filter((n) => n.startsWith("bash-"))
        .sort();
    } catch {
      return;
    }
    for (const n of names.slice(0, Math.max(0, names.length - SAVED_OUTPUTS_KEPT)))
      rmSync(join(this.dir, n), { force: true });
  }
}

export class OutputSpill {
  private pending: Buffer[] = [];
  private total = 0;
  private lines = 0;
  private file: { fd: number; path: string } | undefined;
  private written = 0;
  private failed = false;

  constructor(
    private readonly store: SavedOutputs,
    private readonly threshold: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.failed) return;
    if (!this.file) {
      this.pending.push(chunk);
      if (this.total <= this.threshold) return;
      try {
        this.file = this.store.create();
      } catch {
        this.failed = true;
        this.pending = [];
        return;
      }
      const first = Buffer.concat(this.pending);
      this.pending = [];
      this.write(first);
      return;
    }
    this.write(chunk);
  }

  private write(b: Buffer): void {
    if (!this.file) return;
    const room = SAVED_OUTPUT_MAX_BYTES - this.written;
    const part = b.length > room ? b.subarray(0, room) : b;
    try {
      let off = 0;
      while (off < part.length) off += writeSync(this.file.fd, part, off, part.length - off);
    } catch {
      this.failed = true;
      return;
    }
    this.written += part.length;
    for (let i = part.indexOf(10); i !== -1; i = part.indexOf(10, i + 1)) this.lines++;
  }

  /** The saved file, when the output outgrew the threshold and could be saved. */
  finish(): SavedFile | undefined {
    if (!this.file) return undefined;
    closeSync(this.file.fd);
    const f = this.file;
    this.file = undefined;
    if (this.failed) {
      rmSync(f.path, { force: true });
      return undefined;
    }
    this.store.prune();
    return { path: f.path, bytes: this.written, lines: this.lines, complete: this.written === this.total };
  }
}

/** The note that sends the model to the saved output. */
export function savedNote(f: SavedFile): string {
  const what = f.complete
    ? `the whole output (${formatBytes(f.bytes)}, ${f.lines} lines)`
    : `the first ${formatBytes(f.bytes)} (${f.lines} lines) of the output`;
  // Only tools that reach the file are named: the grep and find tools are confined to the workspace, and a
  // model sent to them by a vague "grep it" would be refused.
  return `[${what} is saved in ${f.path}: \`read\` it with offset and limit to see the part cut above, or search it with \`bash\` (grep -n PATTERN ${f.path}); the \`grep\` and \`find\` tools search only the workspace and cannot open it]`;
}
