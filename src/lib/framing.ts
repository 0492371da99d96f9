// NDJSON framing shared by the core and the worker SDK: LF-delimited JSON, one object per line, UTF-8 safe
// across chunk boundaries (bytes are buffered until the newline, then decoded whole), with a hard cap on
// line size so a runaway peer cannot exhaust memory.
//
// Two ways in: push() takes chunks someone else read (streams), fill() reads straight into the decoder's
// own buffer (a worker's blocking stdin loop), so a multi-megabyte line is not copied chunk by chunk.

export type FramingFault = "oversize" | "encoding";

const NL = 0x0a;
/** fill() reads at least this much at a time: a big line arrives in a few syscalls. */
const FILL_MIN_BYTES = 1 << 20;
/** fill()'s buffer keeps up to this capacity between lines (a ~1M-token history is ~4 MB); more is released. */
const FILL_KEEP_BYTES = 8 << 20;

/** A line's text and its bytes. The bytes are valid only until the next push() or fill(). */
export type LineHandler = (line: string, bytes: Uint8Array) => void;

export class LineDecoder {
  private parts: Uint8Array[] = [];
  private size = 0;
  private failed = false;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: LineHandler,
    private readonly onFault: (fault: FramingFault) => void,
    /** offered each line's bytes before they are decoded: true when it took the line (then not decoded) */
    private readonly claim?: (bytes: Uint8Array) => boolean,
  ) {}

  /** fill()'s buffer: bytes [0, filled) were read, [0, consumed) are lines already delivered */
  private own = new Uint8Array(0);
  private filled = 0;
  private consumed = 0;

  /** Bytes buffered for an unfinished line. */
  get pending(): number {
    return this.size + this.filled - this.consumed;
  }

  /**
   * Read once with `read` (which fills `into` from `offset`, at most `length` bytes, and returns how
   * many it read) straight into the decoder's buffer, then deliver the lines completed. Returns what
   * `read` returned. The delivered bytes stay valid until the next fill() or push().
   */
  fill(read: (into: Uint8Array, offset: number, length: number) => number): number {
    if (this.failed) return 0;
    this.reclaim();
    const n = read(this.own, this.filled, this.own.length - this.filled);
    if (n <= 0) return n;
    let from = this.filled;
    this.filled += n;
    for (;;) {
      const nl = this.own.subarray(0, this.filled).indexOf(NL, from);
      if (nl < 0) break;
      const bytes = this.own.subarray(this.consumed, nl);
      this.consumed = nl + 1;
      from = this.consumed;
      if (!this.deliver(bytes)) return n;
    }
    if (this.filled - this.consumed > this.maxBytes) this.fail("oversize");
    return n;
  }

  /**
   * Drop delivered lines and make room for the next read: FILL_MIN_BYTES (less only near the line cap).
   * The buffer doubles when short of room, so a long line costs linear copying, and one grown past
   * FILL_KEEP_BYTES is released once its line is done.
   */
  private reclaim(): void {
    const rest = this.filled - this.consumed;
    const room = Math.min(FILL_MIN_BYTES, this.maxBytes + 1 - rest);
    let size = this.own.length;
    if (size > FILL_KEEP_BYTES && rest + room <= FILL_KEEP_BYTES) size = rest + room;
    else if (size - rest < room) size = Math.min(Math.max(size * 2, rest + room), this.maxBytes + 1);
    if (size === this.own.length) {
      if (this.consumed > 0) this.own.copyWithin(0, this.consumed, this.filled);
    } else {
      const next = new Uint8Array(size);
      next.set(this.own.subarray(this.consumed, this.filled));
      this.own = next;
    }
    this.filled = rest;
    this.consumed = 0;
  }

  push(chunk: Uint8Array): void {
    if (this.failed) return;
    // Bytes fill() read but did not deliver yet are the start of this line.
    if (this.filled > this.consumed) {
      const rest = this.own.slice(this.consumed, this.filled);
      this.parts.push(rest);
      this.size += rest.length;
    }
    this.filled = this.consumed = 0;
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NL, start);
      const end = nl < 0 ? chunk.length : nl;
      if (this.size + (end - start) > this.maxBytes) {
        this.fail("oversize");
        return;
      }
      if (nl < 0) {
        this.parts.push(chunk.subarray(start));
        this.size += chunk.length - start;
        return;
      }
      const piece = chunk.subarray(start, nl);
      const bytes = this.parts.length === 0 ? piece : this.join(piece);
      this.parts = [];
      this.size = 0;
      start = nl + 1;
      if (!this.deliver(bytes)) return;
    }
  }

  /** Decode and hand on one line; false when the decoder failed or was closed meanwhile. */
  private deliver(bytes: Uint8Array): boolean {
    if (this.claim?.(bytes)) return !this.failed;
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      this.fail("encoding");
      return false;
    }
    this.onLine(text, bytes);
    return !this.failed;
  }

  /** Stop delivering lines (after a fault, or when the peer is being evicted). */
  close(): void {
    this.failed = true;
    this.parts = [];
    this.size = 0;
    this.own = new Uint8Array(0);
    this.filled = this.consumed = 0;
  }

  private join(last: Uint8Array): Uint8Array {
    const out = new Uint8Array(this.size + last.length);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    out.set(last, off);
    return out;
  }

  private fail(fault: FramingFault): void {
    this.close();
    this.onFault(fault);
  }
}

/** One protocol line. JSON.stringify never emits a raw newline, so the frame cannot be broken by content. */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
