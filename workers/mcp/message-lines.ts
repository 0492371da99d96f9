// The stdio transport's read buffer, replaced: the SDK's closes the transport (and so kills the server,
// whose state is lost) when one message passes its 10 MB, and `i` reported that as a crash. Here a message
// may be as large as MAX_MESSAGE_BYTES — beyond every cap the worker puts on a result, which results.ts
// then cuts with a note — and a larger one is skipped to its end instead: the call it answers gets an
// error saying the result was too large, and the server goes on running.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The largest message read from a stdio server: above the worker's result caps (text, images) together. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The end of a skipped message kept to find its id (`…,"jsonrpc":"2.0","id":7}`). */
const TAIL_BYTES = 256;
const ID_AT_END = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

type Item = string | JSONRPCMessage;

/** What StdioClientTransport asks of its read buffer. */
export interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

export class MessageLines implements ReadBufferLike {
  private queue: Item[] = [];
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private skipping = false;
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly parse: (line: string) => JSONRPCMessage,
    private readonly max = MAX_MESSAGE_BYTES,
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      this.add(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  }

  private add(seg: Buffer): void {
    if (seg.length === 0) return;
    if (!this.skipping && this.partialBytes + seg.length <= this.max) {
      this.partial.push(seg);
      this.partialBytes += seg.length;
      return;
    }
    const joined = this.skipping ? [this.tail, seg] : [...this.partial, seg];
    const all = Buffer.concat(joined.map((b) => b.subarray(Math.max(0, b.length - TAIL_BYTES))));
    this.tail = all.subarray(Math.max(0, all.length - TAIL_BYTES));
    this.skipping = true;
    this.partial = [];
    this.partialBytes = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      const id = ID_AT_END.exec(this.tail.toString("utf8"))?.[1];
      this.skipping = false;
      this.tail = Buffer.alloc(0);
      // Without an id there is no call to answer: its own deadline does.
      if (id !== undefined) this.queue.push(tooLarge(JSON.parse(id) as string | number, this.max));
      return;
    }
    const line = Buffer.concat(this.partial).toString("utf8").replace(/\r$/, "");
    this.partial = [];
    this.partialBytes = 0;
    if (line !== "") this.queue.push(line);
  }

  readMessage(): JSONRPCMessage | null {
    const item = this.queue.shift();
    if (item === undefined) return null;
    return typeof item === "string" ? this.parse(item) : item;
  }

  clear(): void {
    this.queue = [];
    this.partial = [];
    this.partialBytes = 0;
    this.skipping = false;
    this.tail = Buffer.alloc(0);
  }
}

function tooLarge(id: string | number, max: number): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: -32001,
      message: `the result was larger than ${Math.round(max / (1024 * 1024))} MB, the most read from a server; it was left unread (the server still runs)`,
    },
  };
}
