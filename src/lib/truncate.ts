// Tool output is untrusted and unbounded; everything is capped before it enters the history, and every
// cut says what was cut and how to see more.

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

function isContinuation(b: number | undefined): boolean {
  return b !== undefined && (b & 0xc0) === 0x80;
}

/** Largest cut ≤ n that does not split a UTF-8 character. */
function headCut(buf: Uint8Array, n: number): number {
  let i = Math.min(n, buf.length);
  while (i > 0 && i < buf.length && isContinuation(buf[i])) i--;
  return i;
}

/** Length of `buf` without a trailing, incomplete UTF-8 character. */
function completeEnd(buf: Uint8Array): number {
  for (let i = buf.length - 1; i >= 0 && i >= buf.length - 4; i--) {
    const b = buf[i] as number;
    if (isContinuation(b)) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > buf.length ? i : buf.length;
  }
  return buf.length;
}

/** Smallest start ≥ n that does not begin inside a UTF-8 character. */
function tailStart(buf: Uint8Array, n: number): number {
  let i = Math.max(0, n);
  while (i < buf.length && isContinuation(buf[i])) i++;
  return i;
}

function countNewlines(buf: Uint8Array, from = 0, to = buf.length): number {
  let n = 0;
  for (let i = from; i < to; i++) if (buf[i] === 10) n++;
  return n;
}

const decoder = new TextDecoder();

/**
 * Collects a stream of bytes keeping only the first `headBytes` and the last `tailBytes`, so memory stays
 * bounded whatever a command prints. Counts what it dropped for the note.
 */
export class HeadTailBuffer {
  private head: Uint8Array[] = [];
  private headLen = 0;
  private tail: Uint8Array[] = [];
  private tailLen = 0;
  private droppedBytes = 0;
  private droppedLines = 0;
  total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLen < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLen, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tailLen > this.tailBytes) {
      const first = this.tail[0] as Uint8Array;
      const excess = this.tailLen - this.tailBytes;
      const drop = Math.min(excess, first.length);
      this.droppedBytes += drop;
      this.droppedLines += countNewlines(first, 0, drop);
      this.tailLen -= drop;
      if (drop === first.length) this.tail.shift();
      else this.tail[0] = first.subarray(drop);
    }
  }

  /** The kept text; when something was dropped, a note sits where the cut is. */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.droppedBytes === 0) return decoder.decode(Buffer.concat([head, tail]));
    // Cut on line boundaries when a line ends near the cut (whole lines read better), else on character
    // boundaries; the bytes moved across the cut count as dropped too.
    const nlHead = head.lastIndexOf(10);
    const h = nlHead !== -1 && nlHead >= head.length - 1024 ? nlHead + 1 : completeEnd(head);
    const nlTail = tail.indexOf(10);
    const t = nlTail !== -1 && nlTail < 1024 ? nlTail + 1 : tailStart(tail, 0);
    const dropped = this.droppedBytes + (head.length - h) + t;
    const lines = this.droppedLines + countNewlines(head, h) + countNewlines(tail, 0, t);
    const note = `${h > 0 && head[h - 1] === 10 ? "" : "\n"}[… ${formatBytes(dropped)} (${lines} line${lines === 1 ? "" : "s"}) cut from the middle of the output; ${formatBytes(this.total)} in total …]\n`;
    return decoder.decode(head.subarray(0, h)) + note + decoder.decode(tail.subarray(t));
  }

  get truncated(): boolean {
    return this.droppedBytes > 0;
  }
}

/** Head and tail of `text` within `maxBytes` (UTF-8), with a note naming the cut; unchanged if it fits. */
export function truncateMiddle(text: string, maxBytes: number, advice: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  const half = Math.floor(maxBytes / 2);
  const h = headCut(bytes, half);
  const t = tailStart(bytes, bytes.length - half);
  const lines = countNewlines(bytes, h, t);
  return `${decoder.decode(bytes.subarray(0, h))}\n[… ${formatBytes(t - h)} (${lines} line${lines === 1 ? "" : "s"}) cut from the middle; ${advice} …]\n${decoder.decode(bytes.subarray(t))}`;
}

/** Head and tail of `text` within `maxChars` characters, with a note naming the cut; unchanged if it fits. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  // Never split a surrogate pair.
  let h = half;
  if (h > 0 && isHighSurrogate(text.charCodeAt(h - 1))) h--;
  let t = text.length - half;
  if (t < text.length && isLowSurrogate(text.charCodeAt(t))) t++;
  let lines = 0;
  for (let i = text.indexOf("\n", h); i !== -1 && i < t; i = text.indexOf("\n", i + 1)) lines++;
  return `${text.slice(0, h)}\n[… ${t - h} characters (${lines} line${lines === 1 ? "" : "s"}) cut from the middle of ${text.length} …]\n${text.slice(t)}`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
