// NDJSON framing shared by the core and the worker SDK: LF-delimited JSON, one object per line, UTF-8 safe
// across chunk boundaries (bytes are buffered until the newline, then decoded whole), with a hard cap on
// line size so a runaway peer cannot exhaust memory.

export type FramingFault = "oversize" | "encoding";

const NL = 0x0a;

export class LineDecoder {
  private parts: Uint8Array[] = [];
  private size = 0;
  private failed = false;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onFault: (fault: FramingFault) => void,
  ) {}

  /** Bytes buffered for an unfinished line. */
  get pending(): number {
    return this.size;
  }

  push(chunk: Uint8Array): void {
    if (this.failed) return;
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
      let text: string;
      try {
        text = this.decoder.decode(bytes);
      } catch {
        this.fail("encoding");
        return;
      }
      this.onLine(text);
      if (this.failed) return;
    }
  }

  /** Stop delivering lines (after a fault, or when the peer is being evicted). */
  close(): void {
    this.failed = true;
    this.parts = [];
    this.size = 0;
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
