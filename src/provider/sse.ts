// A small Server-Sent Events parser (the WHATWG event-stream format both wire formats use). Bytes arrive
// in arbitrary chunks: a multi-byte UTF-8 character or a CRLF pair may be split between two of them, so
// decoding is streaming and a trailing CR is held back until we know whether an LF follows.

export interface SseEvent {
  /** the `event:` field; "message" when the server sent none */
  event: string;
  /** the `data:` lines joined with "\n" */
  data: string;
  id?: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  private started = false;
  private eventName = "";
  private dataLines: string[] = [];
  private lastId: string | undefined;

  /** Feed one chunk; returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.consume(text, false);
  }

  /** The stream ended: flush what is left. A final event without its blank line is still delivered. */
  end(): SseEvent[] {
    const events = this.consume(this.decoder.decode(), true);
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private consume(text: string, final: boolean): SseEvent[] {
    let buf = this.buffer + text;
    if (!this.started && buf.length > 0) {
      this.started = true;
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < buf.length; i++) {
      const c = buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (c === 13 && i === buf.length - 1 && !final) break;
      const line = buf.slice(start, i);
      if (c === 13 && buf.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
      const ev = this.line(line);
      if (ev) events.push(ev);
    }
    this.buffer = buf.slice(start);
    if (final && this.buffer) {
      const ev = this.line(this.buffer);
      this.buffer = "";
      if (ev) events.push(ev);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.dataLines.push(value);
    else if (field === "event") this.eventName = value;
    else if (field === "id" && !value.includes("\0")) this.lastId = value;
    // `retry` and unknown fields do not matter to a one-shot model reply.
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const hadData = this.dataLines.length > 0;
    const ev: SseEvent = { event: this.eventName || "message", data: this.dataLines.join("\n") };
    if (this.lastId !== undefined) ev.id = this.lastId;
    this.eventName = "";
    this.dataLines = [];
    return hadData ? ev : undefined;
  }
}

/**
 * The events of a response body, in order. Aborting `signal` cancels the body promptly (some runtimes do
 * not interrupt a pending read on their own) and the iteration then throws the signal's reason.
 * `onBytes` hears of every chunk, keep-alive comments included (the idle watchdog's heartbeat).
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  onBytes?: () => void,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const parser = new SseParser();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    onAbort = () => {
      reject(signal.reason ?? new DOMException("aborted", "AbortError"));
      reader.cancel().catch(() => {});
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {}); // only observed through the race below
  try {
    while (true) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      // Cancelling the reader also ends the stream normally; an abort must still surface as an error.
      if (signal?.aborted) throw signal.reason ?? new DOMException("aborted", "AbortError");
      if (done) break;
      onBytes?.();
      for (const ev of parser.push(value)) yield ev;
    }
    for (const ev of parser.end()) yield ev;
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    reader.cancel().catch(() => {});
  }
}
