// UTF-8 text that only grows, kept as bytes: JSON the core sends again and again with a little more at
// the end each time (a model request's messages, the columns of a history summary). Kept as one string,
// every request flattened and encoded a new copy of it, and those dead copies are what the core's memory
// peaked on in long sessions (the collector frees them late). Bytes once appended never change, so a view
// of them may be handed out and kept while the log grows (growing moves the log to a bigger buffer and
// leaves the old one as it was). framed() sends the text with a head and a tail around it without copying
// it: the head goes into room kept before the text, the tail into the spare room after it.

const encoder = new TextEncoder();

/** Room kept before the text for a head: `{"model":"…","messages":[` fits with any usual model name. */
const HEAD_ROOM = 256;

export class ByteLog {
  private buf = new Uint8Array(4096);
  /** where the text starts: the head goes just before it */
  private start = HEAD_ROOM;
  private end = HEAD_ROOM;

  /** bytes of text so far */
  get size(): number {
    return this.end - this.start;
  }

  append(text: string): void {
    this.reserve(0, utf8Max(text));
    this.end += encoder.encodeInto(text, this.buf.subarray(this.end)).written;
  }

  /** The text's bytes so far. They never change: keep the view as long as needed. */
  view(): Uint8Array<ArrayBuffer> {
    return this.buf.subarray(this.start, this.end);
  }

  /**
   * head + the text + the tail's parts, as one view of the buffer. A part given as bytes is copied as it
   * is (what is the same every time, kept encoded by the caller). The head and the tail are scratch: the
   * view holds until the next call of framed() or append(); the text bytes in it never change.
   */
  framed(head: string, tail: readonly (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
    const headBytes = encoder.encode(head);
    let more = 0;
    for (const part of tail) more += typeof part === "string" ? utf8Max(part) : part.length;
    this.reserve(headBytes.length, more);
    const from = this.start - headBytes.length;
    this.buf.set(headBytes, from);
    let to = this.end;
    for (const part of tail) {
      if (typeof part === "string") to += encoder.encodeInto(part, this.buf.subarray(to)).written;
      else {
        this.buf.set(part, to);
        to += part.length;
      }
    }
    return this.buf.subarray(from, to);
  }

  /** Room for `head` bytes before the text and `more` bytes after it. */
  private reserve(head: number, more: number): void {
    const room = Math.max(this.start, head);
    const need = room + this.size + more;
    if (this.start >= head && need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf.subarray(this.start, this.end), room);
    this.end = room + this.size;
    this.start = room;
    this.buf = next;
  }
}

/** UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair, 2 units, takes 4). */
const utf8Max = (text: string) => text.length * 3;
