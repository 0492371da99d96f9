// Where a worker's stderr goes: an append-only log file per module, never the user's screen. Bounded: once
// the file passes MAX_LOG_BYTES it is renamed to `<file>.1` (replacing the previous one) and started afresh,
// so a chatty or runaway worker costs at most twice that on disk.
import { closeSync, mkdirSync, openSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { writeAll } from "../lib/write-all.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";

export const MAX_LOG_BYTES = 1024 * 1024;

const RUNTIME_BANNER = /^(Bun|Deno|Node\.js) v\d+\.\d+/;
const STACK_FRAME = /^at\s/;

export class LogSink {
  private fd: number | undefined;
  private size = 0;
  /** the last bytes written, kept so a failure message can quote what the worker said before dying */
  private tailText = "";

  constructor(
    readonly path: string,
    private readonly maxBytes = MAX_LOG_BYTES,
  ) {}

  /** Output of the worker itself. */
  write(chunk: Uint8Array): void {
    this.tailText = (this.tailText + Buffer.from(chunk).toString("utf8")).slice(-2048);
    this.append(chunk);
  }

  /** A line from the host (start, stop, cause of an eviction), not counted as the worker's own output. */
  note(line: string): void {
    this.append(Buffer.from(`[i ${new Date().toISOString()}] ${line}\n`, "utf8"));
  }

  private append(buf: Uint8Array): void {
    try {
      if (this.fd === undefined) this.open();
      if (this.size > 0 && this.size + buf.length > this.maxBytes) this.rotate();
      writeAll(this.fd as number, buf);
      this.size += buf.length;
    } catch {
      // A full disk or an unwritable log directory must not take the agent down; the tail is still kept.
    }
  }

  /**
   * The last line the worker itself wrote, trimmed, or "" when it wrote nothing. A runtime that dies of
   * an uncaught error ends with its own banner ("Bun v1.4.5 (Linux x64)") after the stack: those lines
   * are skipped, so the message is the worker's ("error: Unknown option --compact"), not the runtime's.
   * It goes into error messages (terminal, --json, logs): sanitised here, so no control reaches them raw.
   */
  lastLine(): string {
    const lines = this.tailText.split("\n").map((l) => l.trim());
    let fallback = "";
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i] as string;
      if (!l || RUNTIME_BANNER.test(l)) continue;
      if (!STACK_FRAME.test(l)) return sanitizeLine(l.slice(0, 300));
      fallback ||= sanitizeLine(l.slice(0, 300));
    }
    return fallback;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, "a", 0o600);
    this.size = statSync(this.path).size;
  }

  private rotate(): void {
    this.close();
    renameSync(this.path, `${this.path}.1`);
    this.open();
  }
}
