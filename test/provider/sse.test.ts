import { describe, expect, test } from "bun:test";
import { readSse, type SseEvent, SseParser } from "../../src/provider/sse.ts";

const enc = new TextEncoder();

function parseAll(chunks: (Uint8Array | string)[]): SseEvent[] {
  const p = new SseParser();
  const out: SseEvent[] = [];
  for (const c of chunks) out.push(...p.push(c));
  out.push(...p.end());
  return out;
}

/** Deterministic pseudo-random numbers, so a failing split can be reproduced. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Multi-byte characters of 2, 3 and 4 bytes, CRLF and bare-CR line ends, a comment and a multi-line event.
const STREAM =
  ": keep-alive\r\n" +
  'event: message_start\r\ndata: {"t":"héllo"}\r\n\r\n' +
  "data: 中文 👋🏽 ünïcödé\n\n" +
  "event: delta\rdata: line one\rdata: line two\r\r" +
  "id: 7\ndata:no-space\n\n" +
  "data: [DONE]\n\n";

const EXPECTED: SseEvent[] = [
  { event: "message_start", data: '{"t":"héllo"}' },
  { event: "message", data: "中文 👋🏽 ünïcödé" },
  { event: "delta", data: "line one\nline two" },
  { event: "message", data: "no-space", id: "7" },
  { event: "message", data: "[DONE]", id: "7" },
];

describe("SseParser", () => {
  test("parses fields, event names, comments, multi-line data and all three line endings", () => {
    expect(parseAll([enc.encode(STREAM)])).toEqual(EXPECTED);
  });

  test("gives the same events for every two-way split of the bytes (UTF-8 and CRLF split across chunks)", () => {
    const bytes = enc.encode(STREAM);
    for (let i = 0; i <= bytes.length; i++) {
      expect(parseAll([bytes.slice(0, i), bytes.slice(i)])).toEqual(EXPECTED);
    }
  });

  test("gives the same events for random many-way splits, down to one byte per chunk", () => {
    const bytes = enc.encode(STREAM);
    const rand = rng(42);
    for (let round = 0; round < 200; round++) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; ) {
        const n = 1 + Math.floor(rand() * 5);
        chunks.push(bytes.slice(i, i + n));
        i += n;
      }
      expect(parseAll(chunks)).toEqual(EXPECTED);
    }
  });

  test("a multi-byte character split mid-sequence is never decoded as replacement characters", () => {
    const bytes = enc.encode("data: 👋\n\n");
    // The emoji is 4 bytes starting at offset 6: split inside it.
    const events = parseAll([bytes.slice(0, 7), bytes.slice(7, 9), bytes.slice(9)]);
    expect(events).toEqual([{ event: "message", data: "👋" }]);
  });

  test("strips a leading byte-order mark", () => {
    expect(parseAll([enc.encode("\uFEFFdata: x\n\n")])).toEqual([{ event: "message", data: "x" }]);
  });

  test("delivers a final event that lacks its blank line when the stream ends", () => {
    expect(parseAll(["data: last"])).toEqual([{ event: "message", data: "last" }]);
  });

  test("ignores events with no data lines and unknown fields", () => {
    expect(parseAll(["event: ping\n\nretry: 100\nfoo: bar\n\n"])).toEqual([]);
  });
});

describe("readSse", () => {
  function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
    return new ReadableStream({
      start(c) {
        for (const ch of chunks) c.enqueue(ch);
        c.close();
      },
    });
  }

  test("yields the events of a byte stream", async () => {
    const bytes = enc.encode(STREAM);
    const out: SseEvent[] = [];
    for await (const ev of readSse(streamOf([bytes.slice(0, 10), bytes.slice(10)]))) out.push(ev);
    expect(out).toEqual(EXPECTED);
  });

  test("aborting the signal ends a stream that never sends anything more", async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode("data: first\n\n"));
      },
    });
    const ac = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const ev of readSse(stalled, ac.signal)) {
        seen.push(ev.data);
        ac.abort(new Error("stop"));
      }
    })();
    await expect(run).rejects.toThrow("stop");
    expect(seen).toEqual(["first"]);
  });
});
